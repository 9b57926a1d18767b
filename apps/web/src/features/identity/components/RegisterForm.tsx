import { Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { strongPassword } from '../../../shared/ui/passwordRule';
import { TextField } from '../../../shared/ui/TextField';
import { useForm } from '../../../shared/ui/useForm';
import { email, maxLength, required, sameAs } from '../../../shared/ui/validators';
import type { RegisterValues } from '../useLoginFlow';
import { AuthStepActions, NewPasswordPair } from './AuthFormParts';

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
        <NewPasswordPair
          passwordLabel={t('auth.password')}
          password={form.field('password')}
          confirmation={form.field('confirmation')}
        />
        <AuthStepActions submitLabel={t('auth.register.submit')} busy={busy} onBack={onBack} />
      </Stack>
    </form>
  );
}
