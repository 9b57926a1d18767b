import { Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../api';
import { MfaSettings } from '../components/settings/MfaSettings';
import { PasswordChangeForm } from '../components/settings/PasswordChangeForm';
import { PreferencesForm } from '../components/settings/PreferencesForm';
import { ProfileForm } from '../components/settings/ProfileForm';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper component="section" withBorder radius="md" p="lg" aria-label={title}>
      <Title order={2} fz="h4" mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** /settings: the signed-in user's own profile, language, theme, two-factor authentication and password. */
export function SettingsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  if (!user) return null;
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} fz="h2">
        {t('settings.title')}
      </Title>
      <Section title={t('settings.profile.heading')}>
        <ProfileForm key={user.id} user={user} />
      </Section>
      <Section title={t('settings.preferences.heading')}>
        <PreferencesForm user={user} />
      </Section>
      <Section title={t('settings.mfa.heading')}>
        <MfaSettings user={user} />
      </Section>
      <Section title={t('settings.password.heading')}>
        <PasswordChangeForm />
      </Section>
    </Stack>
  );
}
