import { Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../shared/ui/TextField';
import { useForm } from '../../../shared/ui/useForm';
import { email, required } from '../../../shared/ui/validators';

export interface ForgotPasswordFormProps {
  initialEmail: string;
  busy: boolean;
  onSubmit: (email: string) => void;
  onBack: () => void;
}

export function ForgotPasswordForm({ initialEmail, busy, onSubmit, onBack }: ForgotPasswordFormProps) {
  const { t } = useTranslation();
  const form = useForm({ email: initialEmail }, { email: [required, email] });
  return (
    <form noValidate onSubmit={form.onSubmit((values) => onSubmit(values.email))}>
      <Stack gap="sm">
        <Text size="sm">{t('auth.forgot.description')}</Text>
        <TextField
          label={t('auth.email')}
          type="email"
          autoComplete="username"
          required
          data-autofocus
          {...form.field('email')}
        />
        <Button type="submit" loading={busy} fullWidth>
          {t('auth.forgot.submit')}
        </Button>
        <Button type="button" variant="subtle" onClick={onBack} disabled={busy}>
          {t('auth.backToSignIn')}
        </Button>
      </Stack>
    </form>
  );
}
