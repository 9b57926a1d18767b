import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../../../shared/ui/TextField';
import type { FieldProps } from '../../../shared/ui/useForm';
import { AuthFailureAlert } from './AuthFailureAlert';

/** A new password and its confirmation, as every auth step that sets a password asks for them (01 §5). */
export function NewPasswordPair({
  passwordLabel,
  password,
  confirmation,
}: {
  passwordLabel: string;
  password: FieldProps;
  confirmation: FieldProps;
}) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordField label={passwordLabel} autoComplete="new-password" required {...password} />
      <PasswordField
        label={t('auth.confirmPasswordLabel')}
        autoComplete="new-password"
        required
        {...confirmation}
      />
    </>
  );
}

/** The failure of the last submit (if any), the submit button of an auth step and the way back to sign-in. */
export function AuthStepActions({
  submitLabel,
  busy,
  onBack,
}: {
  submitLabel: string;
  busy: boolean;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <AuthFailureAlert />
      <Button type="submit" loading={busy} fullWidth>
        {submitLabel}
      </Button>
      <Button type="button" variant="subtle" onClick={onBack} disabled={busy}>
        {t('auth.backToSignIn')}
      </Button>
    </>
  );
}
