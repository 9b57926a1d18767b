import type { ActiveUser } from '@caredeck/contracts';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../../shared/ui/TextField';
import { toast, toastErrors } from '../../../../shared/ui/toasts';
import { useForm } from '../../../../shared/ui/useForm';
import { required, sixDigitCode } from '../../../../shared/ui/validators';
import { useMfaDisable, useMfaEnable, useMfaSetup } from '../../api';
import { MfaEnrolment } from './MfaEnrolment';

/** Two-factor enrolment: setup shows a QR code, the key and the otpauth link; a code from the app turns it on. */
export function MfaSettings({ user }: { user: ActiveUser }) {
  const { t } = useTranslation();
  const setup = useMfaSetup();
  const enable = useMfaEnable();
  const disable = useMfaDisable();
  const form = useForm({ code: '' }, { code: [required, sixDigitCode] });

  const submit = form.onSubmit(async ({ code }) => {
    try {
      if (user.mfa_enabled) {
        await disable.mutateAsync(code);
        toast.success(t('settings.mfa.disabled'));
      } else {
        await enable.mutateAsync(code);
        setup.reset();
        toast.success(t('settings.mfa.enabled'));
      }
      form.setValues({ code: '' });
    } catch (error) {
      // Each field shows its own message, and the first message of each field is also a toast (01 §5).
      form.showServerErrors(error);
      toastErrors(error);
    }
  });

  const cancelEnrolment = () => {
    // The server keeps the unconfirmed key until the next setup replaces it; nothing is on until a code confirms.
    setup.reset();
    form.setValues({ code: '' });
    form.setErrors({});
  };

  const codeForm = (submitLabel: string, color?: string, onCancel?: () => void) => (
    <form noValidate onSubmit={submit}>
      <Group align="flex-end">
        <TextField
          label={t('settings.mfa.code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          w={200}
          {...form.field('code')}
        />
        <Button type="submit" color={color} loading={enable.isPending || disable.isPending}>
          {submitLabel}
        </Button>
        {onCancel ? (
          <Button type="button" variant="default" onClick={onCancel} disabled={enable.isPending}>
            {t('settings.mfa.cancel')}
          </Button>
        ) : null}
      </Group>
    </form>
  );

  if (user.mfa_enabled) {
    return (
      <Stack gap="sm">
        <Alert color="success" icon={<IconShieldCheck size={18} />}>
          {t('settings.mfa.on')}
        </Alert>
        {codeForm(t('settings.mfa.disable'), 'danger')}
      </Stack>
    );
  }
  if (!setup.data) {
    return (
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{t('settings.mfa.off')}</Text>
        <Button
          variant="light"
          loading={setup.isPending}
          onClick={() => setup.mutate(undefined, { onError: (error) => toastErrors(error) })}
        >
          {t('settings.mfa.setup')}
        </Button>
      </Stack>
    );
  }
  return (
    <MfaEnrolment secret={setup.data.secret} otpauthUrl={setup.data.otpauth_url}>
      {codeForm(t('settings.mfa.enable'), undefined, cancelEnrolment)}
    </MfaEnrolment>
  );
}
