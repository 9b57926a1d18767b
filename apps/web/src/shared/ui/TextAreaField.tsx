import { trimOnBlur } from '@caredeck/domain';
import { Textarea, type TextareaProps } from '@mantine/core';
import { useShownValue, type ValueProps } from './TextField';

export type TextAreaFieldProps = Omit<TextareaProps, 'value' | 'onChange'> & ValueProps;

/**
 * A multi-line text input, trimmed on blur like every text field; 'Not Provided' when read-only and empty. Apart
 * from TextField: the sign-in form does without Textarea's autosize code (ADR 048).
 */
export function TextAreaField({ value, onChange, onBlur, readOnly, ...props }: TextAreaFieldProps) {
  const shown = useShownValue(value, readOnly);
  return (
    <Textarea
      {...props}
      readOnly={readOnly}
      value={shown}
      onChange={(event) => onChange(event.currentTarget.value)}
      onBlur={(event) => {
        const trimmed = trimOnBlur(event.currentTarget.value);
        if (!readOnly && trimmed !== value) onChange(trimmed);
        onBlur?.(event);
      }}
    />
  );
}
