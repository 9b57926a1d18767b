import { Text } from '@mantine/core';
import type { KeyboardEvent } from 'react';

/** The text of a message (chat, SMS): line breaks kept, long words wrapped. */
export function MessageText({ children }: { children: string }) {
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {children}
    </Text>
  );
}

/** The time a message was sent, as a `<time>` element in the given format. */
export function MessageTime({ at, format }: { at: string; format: Intl.DateTimeFormat }) {
  return (
    <Text size="xs" c="dimmed">
      <time dateTime={at}>{format.format(new Date(at))}</time>
    </Text>
  );
}

/** A composer's keys: Enter sends (not while an input method composes), Shift+Enter starts a new line. */
export function sendOnEnter(send: () => void, enterSends = true) {
  return (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
    // Enter sends (Shift+Enter: new line), or, when the user prefers, Ctrl/Cmd+Enter sends (Enter: new line).
    if (enterSends ? !e.shiftKey : e.ctrlKey || e.metaKey) {
      e.preventDefault();
      send();
    }
  };
}
