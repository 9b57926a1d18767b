import type { ExternalOrder, ExternalOrderHistoryEntry } from '@caredeck/contracts';
import { Alert, Drawer, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useOrderHistory, useOrderTracking } from '../api';
import { StatusBadge } from './StatusBadge';

function HistoryTable({ rows, label }: { rows: ExternalOrderHistoryEntry[]; label: string }) {
  const { t, i18n } = useTranslation('externalOrders');
  const at = new Intl.DateTimeFormat(i18n.language === 'en' ? 'en-US' : i18n.language, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  if (rows.length === 0) return <Text c="dimmed">{t('order.noEvents')}</Text>;
  return (
    <Table aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('order.when')}</Table.Th>
          <Table.Th>{t('order.change')}</Table.Th>
          <Table.Th>{t('order.by')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((h) => (
          <Table.Tr key={h.id}>
            <Table.Td>{at.format(new Date(h.at))}</Table.Td>
            <Table.Td>
              {h.from ? `${t(`statuses.${h.from}`)} → ` : ''}
              {t(`statuses.${h.to}`)}
              {h.note && (
                <Text size="xs" c="dimmed">
                  {h.note}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{h.by?.name ?? t('order.system')}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** One order: its status history (who, when, from → to) and its shipment (carrier, tracking, equipment file). */
export function OrderDrawer({ order, onClose }: { order: ExternalOrder | null; onClose: () => void }) {
  const { t } = useTranslation('externalOrders');
  const history = useOrderHistory(order?.id ?? null);
  const tracking = useOrderTracking(order?.id ?? null);
  const track = tracking.data;
  return (
    <Drawer
      opened={order !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={order ? t('order.title', { order: order.order_number }) : ''}
    >
      {order && (
        <Stack>
          <StatusBadge status={order.status} />
          <Title order={2} fz="h4">
            {t('order.tracking')}
          </Title>
          {tracking.isError ? (
            <Alert color="danger" role="alert">
              {t('loadError')}
            </Alert>
          ) : !track ? (
            <Loader aria-label={t('loading')} />
          ) : (
            <Stack gap={4} data-testid="order-tracking">
              <Text size="sm">
                {t('order.carrier')}: {track.carrier ?? '–'} · {t('order.trackingNumber')}:{' '}
                {track.tracking_number ?? '–'}
              </Text>
              <Text size="sm">
                {t('order.shipped')}: {track.shipped_at?.slice(0, 10) ?? '–'} · {t('order.delivered')}:{' '}
                {track.delivered_at?.slice(0, 10) ?? '–'}
              </Text>
              <Text size="sm">
                {track.equipment_file
                  ? t('order.equipmentFile', {
                      name: track.equipment_file.name,
                      count: track.equipment_file.rows,
                    })
                  : t('order.noEquipmentFile')}
              </Text>
              <HistoryTable rows={track.events} label={t('order.shipmentEvents')} />
            </Stack>
          )}
          <Title order={2} fz="h4">
            {t('order.history')}
          </Title>
          {history.isError ? (
            <Alert color="danger" role="alert">
              {t('loadError')}
            </Alert>
          ) : !history.data ? (
            <Loader aria-label={t('loading')} />
          ) : (
            <HistoryTable rows={history.data.data} label={t('order.history')} />
          )}
        </Stack>
      )}
    </Drawer>
  );
}
