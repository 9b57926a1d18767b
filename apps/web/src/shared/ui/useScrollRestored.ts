import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** The window's scroll offset of each history entry of a list, as it was last scrolled (this tab only). */
const positions = new Map<string, number>();

/**
 * Back to a list puts it where it was scrolled: the offset is kept per history entry (the location's key) while
 * the list is shown, and applied once the list of that entry is rendered again (`ready`). A new visit of the
 * list (another entry) starts at its top.
 */
export function useScrollRestored(ready: boolean): void {
  const { key } = useLocation();
  useEffect(() => {
    const save = () => positions.set(key, window.scrollY);
    window.addEventListener('scroll', save, { passive: true });
    return () => window.removeEventListener('scroll', save);
  }, [key]);
  const restored = useRef<string | null>(null);
  useEffect(() => {
    if (!ready || restored.current === key) return;
    restored.current = key;
    const offset = positions.get(key);
    if (offset) window.scrollTo(0, offset);
  }, [ready, key]);
}
