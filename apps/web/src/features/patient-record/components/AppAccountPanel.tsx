import type { PatientRecord } from '@caredeck/contracts';
import { Button, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api-client';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useAppPassword } from '../api';
import '../i18n';

/** The patient's own sign-in for the patient app: a password set by staff, or a code e-mailed to them. */
export function AppAccountPanel({ patient }: { patient: PatientRecord }) {
  const { t } = useTranslation('patientRecord');
  const common = useTranslation().t;
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const save = useAppPassword(patient.id);

  const setIt = () => {
    // The spec's check before anything is sent (01 §5); the server checks it too.
    if (password !== confirmation) {
      setErrors({ password_confirmation: [common('auth.passwordsDoNotMatch')] });
      return;
    }
    save.mutate(
      { type: '2', password, password_confirmation: confirmation },
      {
        onSuccess: () => {
          toast.success(t('appAccount.passwordSet'));
          setPassword('');
          setConfirmation('');
          setErrors({});
        },
        onError: (error) => {
          const fields = error instanceof ApiError ? error.fieldErrors : {};
          setErrors(fields);
          // A refused password says so under its field, once; anything else is a toast.
          if (!fields.password?.length && !fields.password_confirmation?.length) toastErrors(error);
        },
      },
    );
  };
  const sendCode = () =>
    save.mutate(
      { type: '1' },
      {
        onSuccess: (result) => toast.success(t('appAccount.codeSent', { to: result.sent_to ?? '' })),
        onError: (error) => toastErrors(error),
      },
    );

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Title order={2} fz="h4">
          {t('appAccount.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('appAccount.hint', { name: patient.name })}
        </Text>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setIt();
          }}
        >
          <Stack gap="xs">
            <PasswordInput
              label={t('appAccount.password')}
              value={password}
              onChange={(event) => {
                setPassword(event.currentTarget.value);
                setErrors(({ password: _, ...rest }) => rest);
              }}
              error={errors.password?.[0]}
              autoComplete="new-password"
              required
              data-testid="app-password"
            />
            <PasswordInput
              label={t('appAccount.confirm')}
              value={confirmation}
              onChange={(event) => {
                setConfirmation(event.currentTarget.value);
                setErrors(({ password_confirmation: _, ...rest }) => rest);
              }}
              error={errors.password_confirmation?.[0]}
              autoComplete="new-password"
              required
              data-testid="app-password-confirm"
            />
            <Group justify="space-between" wrap="wrap">
              <Button
                type="submit"
                loading={save.isPending}
                disabled={!password}
                data-testid="app-password-save"
              >
                {t('appAccount.setPassword')}
              </Button>
              <Button
                variant="light"
                onClick={sendCode}
                disabled={save.isPending || !patient.email}
                title={patient.email ? undefined : t('appAccount.noEmail')}
                data-testid="app-send-code"
              >
                {t('appAccount.sendCode')}
              </Button>
            </Group>
            {patient.email ? null : (
              <Text size="xs" c="dimmed">
                {t('appAccount.noEmail')}
              </Text>
            )}
          </Stack>
        </form>
      </Stack>
    </Paper>
  );
}
