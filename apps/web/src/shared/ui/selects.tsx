import { MultiSelect, Select } from '@mantine/core';
import type { DeferredMultiSelectProps, DeferredSelectProps } from './DeferredSelect';
import type { DeferredProps } from './deferred';

// Loaded by DeferredSelect after the first render (ADR 048); elsewhere use Mantine's Select and MultiSelect.

/** The real Select: opened, and focused, if the user reached for its placeholder. */
export function LoadedSelect({ opening, focused, ...props }: DeferredSelectProps & DeferredProps) {
  return <Select {...props} defaultDropdownOpened={opening} autoFocus={focused} />;
}

/** The real MultiSelect: opened, and focused, if the user reached for its placeholder. */
export function LoadedMultiSelect({ opening, focused, ...props }: DeferredMultiSelectProps & DeferredProps) {
  return <MultiSelect {...props} defaultDropdownOpened={opening} autoFocus={focused} />;
}
