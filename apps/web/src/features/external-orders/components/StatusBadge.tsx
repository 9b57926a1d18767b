import type { ExternalOrderStatus } from '@caredeck/contracts';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const COLORS: Record<ExternalOrderStatus, string> = {
  received: 'secondary',
  matched: 'primary',
  fill_verified: 'primary',
  schedule_verified: 'primary',
  verified: 'success',
  finalized: 'success',
  shipped: 'gray',
  delivered: 'gray',
  cancelled: 'danger',
};

export function StatusBadge({ status }: { status: ExternalOrderStatus }) {
  const { t } = useTranslation('externalOrders');
  return (
    <Badge variant="light" color={COLORS[status]} data-testid="order-status">
      {t(`statuses.${status}`)}
    </Badge>
  );
}
