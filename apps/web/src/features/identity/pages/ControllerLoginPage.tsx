import { Button, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { controllerSession } from '../../../app/auth/controllerSession';
import { PublicLayout } from '../../../shared/ui/PublicLayout';
import { PasswordField, TextField } from '../../../shared/ui/TextField';
import { toastErrors } from '../../../shared/ui/toasts';
import { useForm } from '../../../shared/ui/useForm';
import { email, required } from '../../../shared/ui/validators';
import { controllerApi } from '../api';

function controllerTarget(to: string | null): string {
  return to?.startsWith('/controller') && !to.startsWith('/controller/login') ? to : '/controller';
}

/** The controller realm's own sign-in (01 §4): a staff account does not open it. */
export function ControllerLoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const form = useForm({ email: '', password: '' }, { email: [required, email], password: [required] });

  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    try {
      const result = await controllerApi.signIn(values.email, values.password);
      controllerSession.start(result.access_token);
      navigate(controllerTarget(searchParams.get('to')), { replace: true });
    } catch (error) {
      toastErrors(error);
    } finally {
      setBusy(false);
    }
  });

  return (
    <PublicLayout title={t('controller.signInTitle')} subtitle={t('controller.signInSubtitle')}>
      <form noValidate onSubmit={submit}>
        <Stack gap="sm">
          <TextField
            label={t('auth.email')}
            type="email"
            autoComplete="username"
            required
            {...form.field('email')}
          />
          <PasswordField
            label={t('auth.password')}
            autoComplete="current-password"
            required
            {...form.field('password')}
          />
          <Button type="submit" loading={busy} fullWidth>
            {t('auth.signIn')}
          </Button>
        </Stack>
      </form>
    </PublicLayout>
  );
}
