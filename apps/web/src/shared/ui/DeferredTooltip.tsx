import type { ReactElement } from 'react';
import { deferredControl } from './deferred';

/**
 * A tooltip on a first screen: the element shows at once and gets its tooltip once Mantine's Tooltip (and
 * floating-ui) has loaded after the first render (ADR 048).
 */
export const DeferredTooltip = deferredControl<{ label: string; children: ReactElement }>(
  () =>
    import('./tooltip').then((m) => ({ label, children }: { label: string; children: ReactElement }) => (
      <m.Tooltip label={label}>{children}</m.Tooltip>
    )),
  ({ children }) => children,
);
