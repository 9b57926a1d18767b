import { Anchor, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Links to the public terms and privacy pages (01 §7). */
export function LegalLinks() {
  const { t } = useTranslation();
  return (
    <Group component="nav" gap="md" justify="center" aria-label={t('auth.legalLinks')}>
      <Anchor component={Link} to="/terms" size="sm" c="dimmed">
        {t('legal.terms.title')}
      </Anchor>
      <Anchor component={Link} to="/privacy" size="sm" c="dimmed">
        {t('legal.privacy.title')}
      </Anchor>
    </Group>
  );
}
