import { Button, Group, List, ScrollArea, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AuthFailureAlert } from './AuthFailureAlert';

export interface HipaaConsentProps {
  busy: boolean;
  onAccept: () => void;
  onDecline: () => void;
}

/** The HIPAA consent step: accepting records the consent and completes the sign-in. */
export function HipaaConsent({ busy, onAccept, onDecline }: HipaaConsentProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <ScrollArea.Autosize mah={320} type="auto">
        <Stack gap="xs">
          <Text size="sm">{t('auth.hipaa.intro')}</Text>
          <List size="sm" spacing="xs">
            <List.Item>{t('auth.hipaa.point1')}</List.Item>
            <List.Item>{t('auth.hipaa.point2')}</List.Item>
            <List.Item>{t('auth.hipaa.point3')}</List.Item>
            <List.Item>{t('auth.hipaa.point4')}</List.Item>
          </List>
        </Stack>
      </ScrollArea.Autosize>
      <AuthFailureAlert />
      <Group justify="space-between">
        <Button variant="subtle" color="gray" onClick={onDecline} disabled={busy}>
          {t('auth.hipaa.decline')}
        </Button>
        <Button onClick={onAccept} loading={busy}>
          {t('auth.hipaa.accept')}
        </Button>
      </Group>
    </Stack>
  );
}
