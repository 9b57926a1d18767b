import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../shared/ui/PublicLayout';

/** Only the entry rule of the guest messenger exists for now; the messenger itself is a later issue. */
export function GuestMessengerPage() {
  const { t } = useTranslation();
  return (
    <PublicLayout title={t('pages.guestMessenger.title')}>
      <Text>{t('pages.guestMessenger.unavailable')}</Text>
    </PublicLayout>
  );
}
