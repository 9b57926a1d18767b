import type { PatientNotificationType } from '@caredeck/contracts';
import { useTranslation } from 'react-i18next';
import './i18n';

/** The channels' names in the user's language. */
export function useChannelLabels(): Record<PatientNotificationType, string> {
  const { t } = useTranslation('notifications');
  return { sms: t('channels.sms'), email: t('channels.email'), push: t('channels.push') };
}
