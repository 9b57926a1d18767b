import type { ActiveUser } from '@caredeck/contracts';
import { isValidTimeZone } from '@caredeck/domain';
import { Button, Group, Select, SimpleGrid, Stack } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../../../shared/i18n';
import { TextAreaField } from '../../../../shared/ui/TextAreaField';
import { TextField } from '../../../../shared/ui/TextField';
import { toast, toastErrors } from '../../../../shared/ui/toasts';
import { useForm } from '../../../../shared/ui/useForm';
import { maxLength, phone, type Rule, required } from '../../../../shared/ui/validators';
import { useUpdateProfile } from '../../api';

type ProfileValues = {
  given_name: string;
  family_name: string;
  title: string;
  about: string;
  phoneNumber: string;
  tz: string;
};

const validZone: Rule<ProfileValues> = (value) =>
  value === '' || isValidTimeZone(value) ? null : i18n.t('validation.timeZone');

function timeZones(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return current && !zones.includes(current) ? [current, ...zones] : zones;
}

function valuesOf(user: ActiveUser): ProfileValues {
  return {
    given_name: user.given_name,
    family_name: user.family_name,
    title: user.title ?? '',
    about: user.about ?? '',
    phoneNumber: user.phoneNumber ?? '',
    tz: user.tz ?? '',
  };
}

const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

/** Given and family name, title, about, phone and time zone → PUT /user. */
export function ProfileForm({ user }: { user: ActiveUser }) {
  const { t } = useTranslation();
  const update = useUpdateProfile();
  const form = useForm<ProfileValues>(valuesOf(user), {
    given_name: [required, maxLength(100)],
    family_name: [required, maxLength(100)],
    title: [maxLength(100)],
    about: [maxLength(1000)],
    phoneNumber: [phone],
    tz: [validZone],
  });
  const zones = useMemo(() => timeZones(form.values.tz), [form.values.tz]);

  const submit = form.onSubmit(async (values) => {
    try {
      const saved = await update.mutateAsync({
        given_name: values.given_name.trim(),
        family_name: values.family_name.trim(),
        title: orNull(values.title),
        about: orNull(values.about),
        phoneNumber: orNull(values.phoneNumber),
        tz: orNull(values.tz),
      });
      form.setValues(valuesOf(saved));
      toast.success(t('settings.profile.saved'));
    } catch (error) {
      // Each field shows its own message, and the first message of each field is also a toast (01 §5).
      form.showServerErrors(error);
      toastErrors(error);
    }
  });

  return (
    <form noValidate onSubmit={submit} aria-label={t('settings.profile.heading')}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextField
            label={t('settings.profile.givenName')}
            autoComplete="given-name"
            required
            {...form.field('given_name')}
          />
          <TextField
            label={t('settings.profile.familyName')}
            autoComplete="family-name"
            required
            {...form.field('family_name')}
          />
          <TextField label={t('settings.profile.jobTitle')} {...form.field('title')} />
          <TextField
            label={t('settings.profile.phone')}
            type="tel"
            autoComplete="tel"
            {...form.field('phoneNumber')}
          />
        </SimpleGrid>
        <Select
          label={t('settings.profile.timeZone')}
          placeholder={t('settings.profile.timeZonePlaceholder')}
          data={zones}
          searchable
          clearable
          limit={50}
          value={form.values.tz || null}
          onChange={(value) => form.setValue('tz', value ?? '')}
          error={form.errors.tz}
        />
        <TextAreaField
          label={t('settings.profile.about')}
          autosize
          minRows={3}
          maxRows={8}
          {...form.field('about')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending}>
            {t('settings.profile.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
