import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { strongPassword } from '../../../shared/ui/passwordRule';
import { TextField } from '../../../shared/ui/TextField';
import { useForm } from '../../../shared/ui/useForm';
import { required, sameAs, sixDigitCode } from '../../../shared/ui/validators';
import { AuthStepActions, NewPasswordPair } from './AuthFormParts';

export interface ResetPasswordFormProps {
  email: string;
  busy: boolean;
  onSubmit: (code: string, password: string, confirmation: string) => void;
  onBack: () => void;
}

/** forgotPasswordSubmit: the emailed code and the new password, twice. */
export function ResetPasswordForm({ email, busy, onSubmit, onBack }: ResetPasswordFormProps) {
  const { t } = useTranslation();
  const form = useForm(
    { code: '', password: '', confirmation: '' },
    {
      code: [required, sixDigitCode],
      password: [required, strongPassword],
      confirmation: [required, sameAs('password')],
    },
  );
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => onSubmit(values.code, values.password, values.confirmation))}
    >
      <Stack gap="sm">
        <Text size="sm">{t('auth.reset.description', { email })}</Text>
        <TextField
          label={t('auth.reset.code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          {...form.field('code')}
        />
        <NewPasswordPair
          passwordLabel={t('auth.newPasswordLabel')}
          password={form.field('password')}
          confirmation={form.field('confirmation')}
        />
        <AuthStepActions submitLabel={t('auth.reset.submit')} busy={busy} onBack={onBack} />
      </Stack>
    </form>
  );
}
