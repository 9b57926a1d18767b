import { type DateInputError, parseDateInput } from '@caredeck/domain';
import { TextInput, type TextInputProps } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface DateFieldProps extends Omit<TextInputProps, 'value' | 'onChange' | 'min' | 'max'> {
  /** ISO 'YYYY-MM-DD', or '' when empty. */
  value: string;
  onChange: (isoDate: string) => void;
  /** Earliest allowed day, ISO, inclusive. */
  min?: string;
  /** Latest allowed day, ISO, inclusive. */
  max?: string;
}

type MessageKey =
  | 'validation.required'
  | 'validation.dateFormat'
  | 'validation.dateImpossible'
  | 'validation.dateBeforeMin'
  | 'validation.dateAfterMax';

const MESSAGE_KEY: Record<DateInputError, MessageKey> = {
  empty: 'validation.required',
  format: 'validation.dateFormat',
  impossible: 'validation.dateImpossible',
  beforeMin: 'validation.dateBeforeMin',
  afterMax: 'validation.dateAfterMax',
};

/** The day in words, in the interface language ('January 4, 1954', '4. Januar 1954'): never ambiguous. */
function inWords(isoDate: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${isoDate}T00:00:00Z`),
  );
}

/**
 * A typed date: DD-MM-YYYY, DD.MM.YYYY, DD/MM/YYYY, YYYY-MM-DD or DD/MM/YY (01 §5), read by the domain parser
 * when the field loses focus, with optional bounds. Emits the ISO date, or '' while the text is not a date.
 * The day comes first (the placeholder says so), and a typed date is read back in words under the field, so
 * 04/01/1954 is never taken for April 1 without the user seeing it. A problem with what was typed is shown
 * rather than an older form error ('required' from before the user typed).
 */
export function DateField({
  value,
  onChange,
  min,
  max,
  error,
  required,
  onBlur,
  description,
  placeholder,
  ...props
}: DateFieldProps) {
  const { t, i18n } = useTranslation();
  const [text, setText] = useState(value);
  const [reason, setReason] = useState<DateInputError | null>(null);

  const lastEmitted = useRef(value);

  useEffect(() => {
    // A value set from outside (a reset, loaded data) replaces what was typed.
    if (value === lastEmitted.current) return;
    lastEmitted.current = value;
    setText(value);
    setReason(null);
  }, [value]);

  const emit = (isoDate: string) => {
    lastEmitted.current = isoDate;
    if (isoDate !== value) onChange(isoDate);
  };

  const commit = (raw: string) => {
    const result = parseDateInput(raw, { min, max });
    if (result.ok) {
      setReason(null);
      emit(result.date);
      return;
    }
    setReason(result.reason === 'empty' && !required ? null : result.reason);
    emit('');
  };

  const ownError = reason ? t(MESSAGE_KEY[reason], { min, max }) : undefined;
  // Read back only what the user typed in another shape than the stored ISO day.
  const readBack =
    value && !reason && text.trim() !== value
      ? t('validation.dateReadAs', { date: inWords(value, i18n.language) })
      : undefined;
  return (
    <TextInput
      {...props}
      description={description ?? readBack}
      placeholder={placeholder ?? t('validation.datePlaceholder')}
      required={required}
      inputMode="numeric"
      autoComplete="off"
      value={text}
      error={ownError ?? error}
      onChange={(event) => setText(event.currentTarget.value)}
      onBlur={(event) => {
        commit(event.currentTarget.value);
        onBlur?.(event);
      }}
    />
  );
}
