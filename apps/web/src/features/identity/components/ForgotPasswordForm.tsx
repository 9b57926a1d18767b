import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../shared/ui/TextField';
import { useForm } from '../../../shared/ui/useForm';
import { email, required } from '../../../shared/ui/validators';
import { AuthStepActions } from './AuthFormParts';

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
        <AuthStepActions submitLabel={t('auth.forgot.submit')} busy={busy} onBack={onBack} />
      </Stack>
    </form>
  );
}
