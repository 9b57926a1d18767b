import { Button, Group, SimpleGrid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { strongPassword } from '../../../../shared/ui/passwordRule';
import { PasswordField } from '../../../../shared/ui/TextField';
import { toast, toastErrors } from '../../../../shared/ui/toasts';
import { useForm } from '../../../../shared/ui/useForm';
import { required, sameAs } from '../../../../shared/ui/validators';
import { useChangePassword } from '../../api';

const EMPTY = { current_password: '', password: '', password_confirmation: '' };

/** PUT /user/password: the current password, and the new one twice. */
export function PasswordChangeForm() {
  const { t } = useTranslation();
  const change = useChangePassword();
  const form = useForm(EMPTY, {
    current_password: [required],
    password: [required, strongPassword],
    password_confirmation: [required, sameAs('password')],
  });

  const submit = form.onSubmit(async (values) => {
    try {
      await change.mutateAsync(values);
      form.setValues(EMPTY);
      toast.success(t('settings.password.changed'));
    } catch (error) {
      // Each field shows its own message, and the first message of each field is also a toast (01 §5).
      form.showServerErrors(error);
      toastErrors(error);
    }
  });

  return (
    <form noValidate onSubmit={submit} aria-label={t('settings.password.heading')}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <PasswordField
            label={t('settings.password.current')}
            autoComplete="current-password"
            required
            {...form.field('current_password')}
          />
          <PasswordField
            label={t('settings.password.new')}
            autoComplete="new-password"
            required
            {...form.field('password')}
          />
          <PasswordField
            label={t('settings.password.confirm')}
            autoComplete="new-password"
            required
            {...form.field('password_confirmation')}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={change.isPending}>
            {t('settings.password.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
