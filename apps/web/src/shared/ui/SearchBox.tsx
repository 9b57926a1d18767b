import { SEARCH_DEBOUNCE_MS, searchValueToEmit } from '@caredeck/domain';
import { CloseButton, TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface SearchBoxProps extends Omit<TextInputProps, 'value' | 'onChange' | 'defaultValue'> {
  /** The search currently applied; typing starts from it and it counts as already emitted. */
  value: string;
  /** Called 300 ms after the last keystroke, only for an empty or 2+ character text that changed (01 §5). */
  onSearch: (value: string) => void;
  /** Accessible label (required: every input is labelled). */
  label: string;
}

/** The console's one search box: debounced, silent on 1-character texts and on unchanged values. */
export function SearchBox({ value, onSearch, label, ...props }: SearchBoxProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const lastEmitted = useRef(value);
  const onSearchRef = useRef(onSearch);
  onSearchRef.current = onSearch;

  useEffect(() => {
    // A search cleared or set from outside (e.g. on leaving the patient pages) resets the box.
    if (value === lastEmitted.current) return;
    lastEmitted.current = value;
    setText(value);
  }, [value]);

  useEffect(() => {
    const timer = window.setTimeout(() => {
      const next = searchValueToEmit(text, lastEmitted.current);
      if (next === null) return;
      lastEmitted.current = next;
      onSearchRef.current(next);
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text]);

  return (
    <TextInput
      type="search"
      {...props}
      label={label}
      value={text}
      onChange={(event) => setText(event.currentTarget.value)}
      leftSection={<IconSearch size={16} aria-hidden />}
      rightSection={
        text ? <CloseButton size="sm" aria-label={t('common.clear')} onClick={() => setText('')} /> : null
      }
    />
  );
}
