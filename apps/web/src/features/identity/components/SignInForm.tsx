import { Anchor, Button, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PasswordField, TextField } from '../../../shared/ui/TextField';
import { useForm } from '../../../shared/ui/useForm';
import { email, required } from '../../../shared/ui/validators';
import { AuthFailureAlert } from './AuthFailureAlert';

export interface SignInFormProps {
  initialEmail: string;
  busy: boolean;
  onSubmit: (email: string, password: string) => void;
  /** Staff sign-in offers these; the controller realm's sign-in has neither. */
  onForgotPassword?: (email: string) => void;
  onRegister?: () => void;
}

export function SignInForm({ initialEmail, busy, onSubmit, onForgotPassword, onRegister }: SignInFormProps) {
  const { t } = useTranslation();
  const form = useForm(
    { email: initialEmail, password: '' },
    { email: [required, email], password: [required] },
  );
  return (
    <form noValidate onSubmit={form.onSubmit((values) => onSubmit(values.email, values.password))}>
      <Stack gap="sm">
        <TextField
          label={t('auth.email')}
          type="email"
          autoComplete="username"
          required
          data-autofocus
          {...form.field('email')}
        />
        <PasswordField
          label={t('auth.password')}
          autoComplete="current-password"
          required
          {...form.field('password')}
        />
        {onForgotPassword ? (
          <Group justify="flex-end">
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => onForgotPassword(form.values.email)}
            >
              {t('auth.forgotPassword')}
            </Anchor>
          </Group>
        ) : null}
        <AuthFailureAlert />
        <Button type="submit" loading={busy} fullWidth>
          {t('auth.signIn')}
        </Button>
        {onRegister ? (
          <Button type="button" variant="subtle" onClick={onRegister} disabled={busy}>
            {t('auth.createAccount')}
          </Button>
        ) : null}
      </Stack>
    </form>
  );
}
