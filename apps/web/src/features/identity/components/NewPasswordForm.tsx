import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { strongPassword } from '../../../shared/ui/passwordRule';
import { useForm } from '../../../shared/ui/useForm';
import { required, sameAs } from '../../../shared/ui/validators';
import { AuthStepActions, NewPasswordPair } from './AuthFormParts';

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
        <NewPasswordPair
          passwordLabel={t('auth.newPasswordLabel')}
          password={form.field('password')}
          confirmation={form.field('confirmation')}
        />
        <AuthStepActions submitLabel={t('auth.newPassword.submit')} busy={busy} onBack={onBack} />
      </Stack>
    </form>
  );
}
