import { Anchor } from '@mantine/core';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../shared/ui/toasts';
import { useAlertNotices } from '../api';
import '../i18n';

/** Mounted by the console shell: live notices of alerts escalated to the user's role or raised by a rule for it. */
export function AlertNotices() {
  const { t } = useTranslation('alerts');
  const show = useCallback(
    (kind: 'escalated' | 'rule', alertType: string, alertId: number) =>
      toast.warning(
        // Toasts render outside the router: a plain link opens the board at the alert.
        <Anchor href={`/alerts?type=${alertType}&status=all&alert=${alertId}`} size="sm">
          {t(`notices.${kind}`, { type: t(`types.${alertType as 'missed_doses'}`) })}
        </Anchor>,
        { title: t('notices.title') },
      ),
    [t],
  );
  useAlertNotices(show);
  return null;
}
