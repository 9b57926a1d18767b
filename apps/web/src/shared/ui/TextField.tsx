import { trimOnBlur } from '@caredeck/domain';
import {
  PasswordInput,
  type PasswordInputProps,
  Textarea,
  type TextareaProps,
  TextInput,
  type TextInputProps,
} from '@mantine/core';
import type { FocusEvent } from 'react';
import { useTranslation } from 'react-i18next';

type ValueProps = {
  value: string;
  onChange: (value: string) => void;
};

export type TextFieldProps = Omit<TextInputProps, 'value' | 'onChange'> & ValueProps;

/** A text input that trims surrounding whitespace when it loses focus (01 §5). Required fields show a red star. */
export function TextField({ value, onChange, onBlur, type, ...props }: TextFieldProps) {
  const handleBlur = (event: FocusEvent<HTMLInputElement>) => {
    const trimmed = trimOnBlur(event.currentTarget.value, type ?? 'text');
    if (trimmed !== value) onChange(trimmed);
    onBlur?.(event);
  };
  return (
    <TextInput
      {...props}
      type={type}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      onBlur={handleBlur}
    />
  );
}

export type PasswordFieldProps = Omit<PasswordInputProps, 'value' | 'onChange'> & ValueProps;

/** A password input: never trimmed; the visibility toggle is labelled without the word 'password'. */
export function PasswordField({ value, onChange, ...props }: PasswordFieldProps) {
  const { t } = useTranslation();
  return (
    <PasswordInput
      {...props}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      visibilityToggleButtonProps={{ 'aria-label': t('common.showHide') }}
    />
  );
}

export type TextAreaFieldProps = Omit<TextareaProps, 'value' | 'onChange'> & ValueProps;

/** A multi-line text input, trimmed on blur like every text field. */
export function TextAreaField({ value, onChange, onBlur, ...props }: TextAreaFieldProps) {
  return (
    <Textarea
      {...props}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      onBlur={(event) => {
        const trimmed = trimOnBlur(event.currentTarget.value);
        if (trimmed !== value) onChange(trimmed);
        onBlur?.(event);
      }}
    />
  );
}
