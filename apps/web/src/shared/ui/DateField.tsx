import { type DateInputError, formatLanguageDate, parseLanguageDate } from '@caredeck/domain';
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
 * A typed date in the interface language's one format (ADR 054: MM/DD/YYYY in English, DD.MM.YYYY in German,
 * DD/MM/YYYY in French and Portuguese; ISO YYYY-MM-DD too), read by the domain parser when the field loses
 * focus, with optional bounds; anything else is refused with the expected format, never guessed. Emits the ISO
 * date, or '' while the text is not a date. The field shows the date in the format it is typed in, and the day
 * that will be saved in words under it ('Saved as April 12, 2026'). A problem with what was typed is shown
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
  const language = i18n.language;
  const [text, setText] = useState(() => formatLanguageDate(value, language));
  const [reason, setReason] = useState<DateInputError | null>(null);

  const lastEmitted = useRef(value);
  const shownIn = useRef(language);

  useEffect(() => {
    // A value set from outside (a reset, loaded data) replaces what was typed; so does a change of language,
    // or the old text would be read in the new language's order (04/12 is 12 April in English, 4 December in
    // French).
    if (value === lastEmitted.current && language === shownIn.current) return;
    lastEmitted.current = value;
    shownIn.current = language;
    setText(formatLanguageDate(value, language));
    setReason(null);
  }, [value, language]);

  const emit = (isoDate: string) => {
    lastEmitted.current = isoDate;
    if (isoDate !== value) onChange(isoDate);
  };

  const commit = (raw: string) => {
    const result = parseLanguageDate(raw, language, { min, max });
    if (result.ok) {
      setReason(null);
      setText(formatLanguageDate(result.date, language));
      emit(result.date);
      return;
    }
    setReason(result.reason === 'empty' && !required ? null : result.reason);
    emit('');
  };

  const ownError = reason
    ? t(MESSAGE_KEY[reason], {
        min: min && formatLanguageDate(min, language),
        max: max && formatLanguageDate(max, language),
      })
    : undefined;
  // The day that will be saved, in words: 12/04/2026 cannot be taken for another day without the user seeing it.
  const readBack =
    value && !reason ? t('validation.dateReadAs', { date: inWords(value, language) }) : undefined;
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
