import { type MantineSpacing, Table } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';

/**
 * A table that scrolls sideways inside its own box on a narrow screen (issue 32 item 5: the record on a 390 px
 * phone) instead of pushing the page wider. The scrolling box can be focused and scrolled with the keyboard
 * (axe: scrollable-region-focusable) and is named for screen readers.
 */
export function ScrollTable({
  label,
  minWidth,
  mt,
  children,
}: {
  /** What the table lists, read out when the box is focused. */
  label: string;
  minWidth: number;
  mt?: MantineSpacing;
  children: ReactNode;
}) {
  return (
    <Table.ScrollContainer
      minWidth={minWidth}
      mt={mt}
      scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label } }}
    >
      {children}
    </Table.ScrollContainer>
  );
}

/**
 * A row's last cell (its actions) kept in view at the right edge while the rest of the row scrolls sideways,
 * so an action is never off-screen on a phone.
 */
export const STICKY_ACTIONS: CSSProperties = {
  position: 'sticky',
  right: 0,
  background: 'var(--mantine-color-body)',
  boxShadow: '-8px 0 8px -8px rgba(0, 0, 0, 0.25)',
};
