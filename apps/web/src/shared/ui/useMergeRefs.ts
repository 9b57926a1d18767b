import { mergeRefs } from '@mantine/hooks';
import { type Ref, useMemo } from 'react';

/**
 * `useMergeRefs` as @floating-ui/react has it (one callback ref for several refs; null when there are none), for
 * Mantine's ScrollArea, the only thing it takes from that package: the build points ScrollArea's import here
 * (vite.config.ts, `scrollAreaWithoutFloatingUi`), so the console frame and the patient list, which draw
 * ScrollAreas at once, do not load floating-ui, which only popovers need (ADR 048).
 */
export function useMergeRefs<T>(
  refs: ReadonlyArray<Ref<T> | undefined>,
): ((instance: T | null) => void) | null {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the refs themselves are the dependencies.
  return useMemo(() => (refs.every((ref) => ref == null) ? null : mergeRefs(...refs)), refs);
}
