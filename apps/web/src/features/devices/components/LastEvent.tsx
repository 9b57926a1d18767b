import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** "3 minutes ago", "yesterday": how long ago an instant was, in the interface language. */
export function relative(iso: string | null, locale: string): string | null {
  if (!iso) return null;
  const seconds = Math.round((Date.parse(iso) - Date.now()) / 1000);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 60) return rtf.format(seconds, 'second');
  if (abs < 3600) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return rtf.format(Math.round(seconds / 3600), 'hour');
  return rtf.format(Math.round(seconds / 86_400), 'day');
}

/** A device's last event as words ("Dose taken") and how long ago it came, or "Never seen". */
export function LastEvent({ type, at }: { type: string | null; at: string | null }) {
  const { t, i18n } = useTranslation('devices');
  const locale = i18n.language === 'en' ? 'en-US' : i18n.language;
  if (!type)
    return (
      <Text size="sm" c="dimmed">
        {t('never')}
      </Text>
    );
  return (
    <Text size="sm">
      {t(`eventTypes.${type}`, { defaultValue: type })}{' '}
      <Text span c="dimmed" size="xs">
        {relative(at, locale)}
      </Text>
    </Text>
  );
}
