import { Button, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PasswordField, TextField } from '../../../shared/ui/TextField';
import { useForm } from '../../../shared/ui/useForm';
import { email, maxLength, required, sameAs, strongPassword } from '../../../shared/ui/validators';
import type { RegisterValues } from '../useLoginFlow';

export interface RegisterFormProps {
  busy: boolean;
  onSubmit: (values: RegisterValues) => void;
  onBack: () => void;
}

const EMPTY: RegisterValues = { given_name: '', family_name: '', email: '', password: '', confirmation: '' };

/** Sign-up: first name, last name, email, password twice (01 §5); then the confirmation code. */
export function RegisterForm({ busy, onSubmit, onBack }: RegisterFormProps) {
  const { t } = useTranslation();
  const form = useForm<RegisterValues>(EMPTY, {
    given_name: [required, maxLength(100)],
    family_name: [required, maxLength(100)],
    email: [required, email],
    password: [required, strongPassword],
    confirmation: [required, sameAs('password')],
  });
  return (
    <form noValidate onSubmit={form.onSubmit(onSubmit)}>
      <Stack gap="sm">
        <Group grow align="flex-start">
          <TextField
            label={t('auth.register.givenName')}
            autoComplete="given-name"
            required
            {...form.field('given_name')}
          />
          <TextField
            label={t('auth.register.familyName')}
            autoComplete="family-name"
            required
            {...form.field('family_name')}
          />
        </Group>
        <TextField
          label={t('auth.email')}
          type="email"
          autoComplete="email"
          required
          {...form.field('email')}
        />
        <PasswordField
          label={t('auth.password')}
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
          {t('auth.register.submit')}
        </Button>
        <Button type="button" variant="subtle" onClick={onBack} disabled={busy}>
          {t('auth.backToSignIn')}
        </Button>
      </Stack>
    </form>
  );
}
