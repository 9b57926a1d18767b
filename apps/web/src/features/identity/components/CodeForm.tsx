import { Stack, Text } from '@mantine/core';
import { TextField } from '../../../shared/ui/TextField';
import { useForm } from '../../../shared/ui/useForm';
import { required, sixDigitCode } from '../../../shared/ui/validators';
import { AuthStepActions } from './AuthFormParts';

export interface CodeFormProps {
  description: string;
  codeLabel: string;
  submitLabel: string;
  busy: boolean;
  onSubmit: (code: string) => void;
  onBack: () => void;
}

/** A 6-digit code step: MFA, confirm registration. */
export function CodeForm({ description, codeLabel, submitLabel, busy, onSubmit, onBack }: CodeFormProps) {
  const form = useForm({ code: '' }, { code: [required, sixDigitCode] });
  return (
    <form noValidate onSubmit={form.onSubmit((values) => onSubmit(values.code))}>
      <Stack gap="sm">
        <Text size="sm">{description}</Text>
        <TextField
          label={codeLabel}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          data-autofocus
          {...form.field('code')}
        />
        <AuthStepActions submitLabel={submitLabel} busy={busy} onBack={onBack} />
      </Stack>
    </form>
  );
}
