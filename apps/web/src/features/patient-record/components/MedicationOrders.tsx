import type { Order, Regimen } from '@caredeck/contracts';
import { isoDate, localDateOf, resolveDisplayZone } from '@caredeck/domain';
import { Badge, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { identityDate } from '../../../shared/ui/notProvided';
import { ScrollTable } from '../../../shared/ui/ScrollTable';

/** The patient's medication orders, newest first, each with the regimen scheduled under it. */
export function MedicationOrders({
  orders,
  regimens,
  zone,
}: {
  orders: readonly Order[];
  regimens: readonly Regimen[];
  /** The patient's time zone: the day an order was placed is the patient's day. */
  zone: string | null;
}) {
  const { t } = useTranslation('patientRecord');
  const regimenName = new Map(regimens.map((r) => [r.id, r.name]));
  // The regimens scheduled under an order (the console's own flow), or the one the order was made for.
  const regimensOf = (order: Order) => {
    const under = regimens.filter((r) => r.order_id === order.id).map((r) => r.name);
    const named = order.regimen_id === null ? undefined : regimenName.get(order.regimen_id);
    return [...new Set([...(named ? [named] : []), ...under])].join(', ');
  };
  const newestFirst = [...orders].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
  const dash = (
    <Text span size="sm" c="dimmed">
      –
    </Text>
  );
  return (
    <Stack gap="xs">
      <Title order={2} fz="h5">
        {t('orders.title')}
      </Title>
      {orders.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('orders.empty')}
        </Text>
      ) : (
        <ScrollTable label={t('orders.title')} minWidth={640}>
          <Table data-testid="medication-orders" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('orders.medication')}</Table.Th>
                <Table.Th>{t('orders.quantity')}</Table.Th>
                <Table.Th>{t('orders.prescriber')}</Table.Th>
                <Table.Th>{t('orders.regimen')}</Table.Th>
                <Table.Th>{t('orders.ordered')}</Table.Th>
                <Table.Th>{t('orders.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {newestFirst.map((order) => {
                const details = [order.form, order.route].filter(Boolean).join(' · ');
                return (
                  <Table.Tr key={order.id} data-testid="medication-order">
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {[order.drug_name, order.strength].filter(Boolean).join(' ')}
                      </Text>
                      {details ? (
                        <Text size="xs" c="dimmed">
                          {details}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      {order.quantity === null
                        ? dash
                        : order.refills
                          ? t('orders.quantityRefills', { quantity: order.quantity, count: order.refills })
                          : String(order.quantity)}
                    </Table.Td>
                    <Table.Td>{order.prescriber?.name ?? dash}</Table.Td>
                    <Table.Td>{regimensOf(order) || dash}</Table.Td>
                    <Table.Td>
                      {identityDate(
                        isoDate(localDateOf(Date.parse(order.created_at), resolveDisplayZone(zone))),
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color="gray">
                        {t(`orders.statuses.${order.status}`, { defaultValue: order.status })}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
    </Stack>
  );
}
