import { trimOnBlur } from '@caredeck/domain';
import { PasswordInput, type PasswordInputProps, TextInput, type TextInputProps } from '@mantine/core';
import type { FocusEvent } from 'react';
import { useTranslation } from 'react-i18next';

export type ValueProps = {
  value: string;
  onChange: (value: string) => void;
};

export type TextFieldProps = Omit<TextInputProps, 'value' | 'onChange'> & ValueProps;

/** What a read-only field shows: its value, or 'Not Provided' when it has none (01 §5). */
export function useShownValue(value: string, readOnly: boolean | undefined): string {
  const { t } = useTranslation();
  return readOnly && value.trim() === '' ? t('common.notProvided') : value;
}

/**
 * A text input that trims surrounding whitespace when it loses focus (01 §5). Required fields show a red star;
 * a read-only field without a value shows 'Not Provided'.
 */
export function TextField({ value, onChange, onBlur, type, readOnly, ...props }: TextFieldProps) {
  const shown = useShownValue(value, readOnly);
  const handleBlur = (event: FocusEvent<HTMLInputElement>) => {
    const trimmed = trimOnBlur(event.currentTarget.value, type ?? 'text');
    if (!readOnly && trimmed !== value) onChange(trimmed);
    onBlur?.(event);
  };
  return (
    <TextInput
      {...props}
      type={type}
      readOnly={readOnly}
      value={shown}
      onChange={(event) => onChange(event.currentTarget.value)}
      onBlur={handleBlur}
    />
  );
}

export type PasswordFieldProps = Omit<PasswordInputProps, 'value' | 'onChange'> & ValueProps;

/**
 * A password input: never trimmed; the visibility toggle is labelled without the word 'password'. Mantine marks
 * an invalid password input only with a data attribute: aria-invalid tells assistive technology too.
 */
export function PasswordField({ value, onChange, ...props }: PasswordFieldProps) {
  const { t } = useTranslation();
  return (
    <PasswordInput
      aria-invalid={props.error ? true : undefined}
      {...props}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      visibilityToggleButtonProps={{ 'aria-label': t('common.showHide') }}
    />
  );
}
