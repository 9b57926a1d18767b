import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PublicLayout } from '../../shared/ui/PublicLayout';

export function NotAuthorizedPage() {
  const { t } = useTranslation();
  return (
    <PublicLayout title={t('pages.notAuthorized.title')}>
      <Text>{t('pages.notAuthorized.message')}</Text>
      <Group justify="flex-end">
        <Button component={Link} to="/patients">
          {t('pages.notAuthorized.home')}
        </Button>
      </Group>
    </PublicLayout>
  );
}
