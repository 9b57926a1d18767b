import { Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../../../shared/ui/TextField';
import { useForm } from '../../../shared/ui/useForm';
import { required, sameAs, strongPassword } from '../../../shared/ui/validators';

export interface NewPasswordFormProps {
  busy: boolean;
  onSubmit: (password: string, confirmation: string) => void;
  onBack: () => void;
}

/** newPassword: a temporary password must be replaced; both entries must match (01 §5). */
export function NewPasswordForm({ busy, onSubmit, onBack }: NewPasswordFormProps) {
  const { t } = useTranslation();
  const form = useForm(
    { password: '', confirmation: '' },
    { password: [required, strongPassword], confirmation: [required, sameAs('password')] },
  );
  return (
    <form noValidate onSubmit={form.onSubmit((values) => onSubmit(values.password, values.confirmation))}>
      <Stack gap="sm">
        <Text size="sm">{t('auth.newPassword.description')}</Text>
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
          {t('auth.newPassword.submit')}
        </Button>
        <Button type="button" variant="subtle" onClick={onBack} disabled={busy}>
          {t('auth.backToSignIn')}
        </Button>
      </Stack>
    </form>
  );
}
