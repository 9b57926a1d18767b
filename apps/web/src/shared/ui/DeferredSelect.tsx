import {
  ComboboxChevron,
  ComboboxClearButton,
  getOptionsLockup,
  getParsedComboboxData,
  InputBase,
  type MantineSize,
  type MultiSelectProps,
  Pill,
  PillsInput,
  type SelectProps,
} from '@mantine/core';
import { deferredControl, type PlaceholderProps } from './deferred';

// The selects of the first screens (the scope, the patient list's filters and page size). Mantine's Select and
// MultiSelect bring the Combobox, the Popover and floating-ui: they load right after the first render, and until
// then a placeholder built from the same Input parts, with the same props, draws the same field (ADR 048).

/** The Select props the first screens use, all of which the placeholder draws. */
export type DeferredSelectProps = Pick<
  SelectProps,
  | 'label'
  | 'placeholder'
  | 'data'
  | 'value'
  | 'onChange'
  | 'clearable'
  | 'searchable'
  | 'allowDeselect'
  | 'size'
  | 'w'
  | 'id'
  | 'comboboxProps'
>;

/** The MultiSelect props the first screens use, all of which the placeholder draws. */
export type DeferredMultiSelectProps = Pick<
  MultiSelectProps,
  'label' | 'placeholder' | 'data' | 'value' | 'onChange' | 'clearable' | 'size' | 'w' | 'id'
>;

/** The keys that open Mantine's Select and MultiSelect from the keyboard. */
const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown', 'ArrowUp']);

/** A press or an opening key on the placeholder: the real select opens as soon as it is there. */
function reaching(onOpen: () => void) {
  return {
    onMouseDown: onOpen,
    onClick: onOpen,
    onKeyDown: (event: { key: string }) => {
      if (OPENING_KEYS.has(event.key)) onOpen();
    },
  };
}

/** What Select's and MultiSelect's target carry before their dropdown opens. */
const CLOSED_COMBOBOX = {
  role: 'combobox',
  'aria-haspopup': 'listbox',
  'aria-expanded': false,
  autoComplete: 'off',
} as const;

function labelsOf(data: DeferredSelectProps['data']) {
  return getOptionsLockup(getParsedComboboxData(data));
}

function SelectPlaceholder({
  data,
  value,
  onChange,
  clearable,
  searchable,
  allowDeselect: _allowDeselect,
  comboboxProps: _comboboxProps,
  size = 'sm',
  onOpen,
  onFocus,
  onBlur,
  ...others
}: DeferredSelectProps & PlaceholderProps) {
  const shown = value == null ? '' : (labelsOf(data)[value]?.label ?? '');
  return (
    <InputBase
      {...others}
      {...CLOSED_COMBOBOX}
      size={size}
      value={shown}
      // A searchable select's field is editable: typing in the placeholder reaches for the select too.
      readOnly={!searchable}
      onChange={onOpen}
      pointer={!searchable}
      {...reaching(onOpen)}
      onFocus={onFocus}
      onBlur={onBlur}
      __defaultRightSection={<ComboboxChevron size={size} />}
      __clearSection={<ComboboxClearButton onClear={() => onChange?.(null, null as never)} />}
      __clearable={Boolean(clearable) && value != null}
      rightSectionPointerEvents="none"
    />
  );
}

/** The right padding MultiSelect gives its pills when the clear button shows (Mantine's own values). */
const CLEAR_SECTION_OFFSET: Record<string, number> = { xs: 41, sm: 50, md: 60, lg: 72, xl: 89 };

function MultiSelectPlaceholder({
  data,
  value = [],
  onChange,
  clearable,
  placeholder,
  size = 'sm',
  id,
  onOpen,
  onFocus,
  onBlur,
  ...others
}: DeferredMultiSelectProps & PlaceholderProps) {
  const labels = labelsOf(data);
  const clearableNow = Boolean(clearable) && value.length > 0;
  return (
    <PillsInput
      {...others}
      id={id}
      size={size as MantineSize}
      pointer
      onClick={onOpen}
      onMouseDown={onOpen}
      __defaultRightSection={<ComboboxChevron size={size} />}
      __clearSection={<ComboboxClearButton onClear={() => onChange?.([])} />}
      __clearable={clearableNow}
      rightSectionPointerEvents="none"
    >
      <Pill.Group
        style={
          clearableNow
            ? { paddingInlineEnd: CLEAR_SECTION_OFFSET[String(size)] ?? CLEAR_SECTION_OFFSET.sm }
            : undefined
        }
      >
        {value.map((item) => (
          <Pill
            key={item}
            withRemoveButton={!labels[item]?.disabled}
            onRemove={() => onChange?.(value.filter((other) => other !== item))}
          >
            {labels[item]?.label || item}
          </Pill>
        ))}
        <PillsInput.Field
          {...CLOSED_COMBOBOX}
          id={id}
          placeholder={placeholder}
          type={placeholder ? 'visible' : 'hidden'}
          readOnly
          pointer
          onKeyDown={reaching(onOpen).onKeyDown}
          onFocus={onFocus}
          onBlur={onBlur}
        />
      </Pill.Group>
    </PillsInput>
  );
}

/** Mantine's Select, its code loaded after the first render (a look-alike placeholder until then). */
export const DeferredSelect = deferredControl<DeferredSelectProps>(
  () => import('./selects').then((m) => m.LoadedSelect),
  SelectPlaceholder,
);

/** Mantine's MultiSelect, its code loaded after the first render (a look-alike placeholder until then). */
export const DeferredMultiSelect = deferredControl<DeferredMultiSelectProps>(
  () => import('./selects').then((m) => m.LoadedMultiSelect),
  MultiSelectPlaceholder,
);
