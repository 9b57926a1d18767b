import { Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PasswordField, TextField } from '../../../shared/ui/TextField';
import { useForm } from '../../../shared/ui/useForm';
import { required, sameAs, sixDigitCode, strongPassword } from '../../../shared/ui/validators';

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
        <PasswordField
          label={t('auth.newPasswordLabel')}
          autoComplete="new-password"
          required
          {...form.field('password')}
        />
        <PasswordField
          label={t('auth.confirmPasswordLabel')}
          autoComplete="new-password"
          required
          {...form.field('confirmation')}
        />
        <Button type="submit" loading={busy} fullWidth>
          {t('auth.reset.submit')}
        </Button>
        <Button type="button" variant="subtle" onClick={onBack} disabled={busy}>
          {t('auth.backToSignIn')}
        </Button>
      </Stack>
    </form>
  );
}
