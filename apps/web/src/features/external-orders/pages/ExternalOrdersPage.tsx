import { EXTERNAL_ORDER_STATUSES, type ExternalOrder } from '@caredeck/contracts';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  MultiSelect,
  Pagination,
  Paper,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconDownload, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { DateField } from '../../../shared/ui/DateField';
import { SearchBox } from '../../../shared/ui/SearchBox';
import { useActiveScope } from '../../tenancy/scope';
import {
  type OrderFilters,
  type ReviewTarget,
  useExternalOrders,
  useOrderStatuses,
  useProgramPatients,
} from '../api';
import { ImportModal } from '../components/ImportModal';
import { MatchModal } from '../components/MatchModal';
import { OrderDrawer } from '../components/OrderDrawer';
import { ReviewDrawer } from '../components/ReviewDrawer';
import { StatusBadge } from '../components/StatusBadge';
import '../i18n';

export const SAMPLE_CSV_URL = '/samples/external-orders-sample.csv';

function filtersOf(params: URLSearchParams): OrderFilters {
  const statuses = (params.get('statuses') ?? '')
    .split(',')
    .filter((s) => (EXTERNAL_ORDER_STATUSES as readonly string[]).includes(s));
  return {
    date: /^\d{4}-\d{2}-\d{2}$/.test(params.get('date') ?? '') ? params.get('date')! : '',
    statuses,
    automation: params.get('automation') === '1',
    verified: params.get('verified') === '1',
    search: params.get('search') ?? '',
    drug: params.get('drug') ?? '',
    patient: /^\d+$/.test(params.get('patient') ?? '') ? params.get('patient')! : '',
    page: Math.max(1, Number(params.get('page')) || 1),
  };
}

/**
 * /external-orders: the pharmacy's orders imported from its CSV export. Staff import a file, match pharmacy
 * patients to CareDeck patients, review each patient's fill files and schedules for a need-by date, then
 * finalize (ADR 045).
 */
export function ExternalOrdersPage() {
  const { t, i18n } = useTranslation('externalOrders');
  const scope = useActiveScope();
  const programId = scope?.programId ?? 0;
  const [params, setParams] = useSearchParams();
  const f = filtersOf(params);
  const list = useExternalOrders(programId, f);
  const patients = useProgramPatients(programId);
  const catalogue = useOrderStatuses(programId);
  // The catalogue's order and counts once loaded (GET external_order_statuses), the fixed list until then.
  const statusOptions = (
    catalogue.data?.data ?? EXTERNAL_ORDER_STATUSES.map((status) => ({ status, orders: null }))
  ).map((s) => ({
    value: s.status,
    label:
      s.orders === null
        ? t(`statuses.${s.status}`)
        : t('statusCount', { status: t(`statuses.${s.status}`), count: s.orders }),
  }));
  const [importing, setImporting] = useState(false);
  const [matching, setMatching] = useState<ExternalOrder['external_patient'] | null>(null);
  const [review, setReview] = useState<ReviewTarget | null>(null);
  const [orderOpen, setOrderOpen] = useState<ExternalOrder | null>(null);
  const set = (key: string, value: string) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(key, value);
      else next.delete(key);
      if (key !== 'page') next.delete('page');
      return next;
    });
  const day = new Intl.DateTimeFormat(i18n.language === 'en' ? 'en-US' : i18n.language, {
    dateStyle: 'medium',
    timeZone: 'UTC',
  });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <div>
          <Title order={1} fz="h2">
            {i18n.t('nav.externalOrders')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('subtitle')}
          </Text>
        </div>
        <Group>
          <Anchor href={SAMPLE_CSV_URL} download size="sm">
            <Group gap={4} component="span">
              <IconDownload size={16} aria-hidden />
              {t('sample')}
            </Group>
          </Anchor>
          <Button leftSection={<IconUpload size={16} aria-hidden />} onClick={() => setImporting(true)}>
            {t('import.open')}
          </Button>
        </Group>
      </Group>
      <Paper withBorder p="sm" radius="md">
        <Group align="flex-end" wrap="wrap" gap="sm">
          <DateField label={t('filters.date')} value={f.date} onChange={(v) => set('date', v)} w={160} />
          <MultiSelect
            label={t('filters.statuses')}
            data={statusOptions}
            value={f.statuses}
            onChange={(v) => set('statuses', v.join(','))}
            clearable
            w={260}
          />
          <SearchBox
            label={t('filters.search')}
            value={f.search}
            onSearch={(v) => set('search', v)}
            w={200}
          />
          <SearchBox label={t('filters.drug')} value={f.drug} onSearch={(v) => set('drug', v)} w={180} />
          <Select
            label={t('filters.patient')}
            data={(patients.data?.data ?? []).map((p) => ({
              value: String(p.id),
              label: `${p.last_name}, ${p.first_name}${p.mrn ? ` (${p.mrn})` : ''}`,
            }))}
            value={f.patient || null}
            onChange={(v) => set('patient', v ?? '')}
            searchable
            clearable
            limit={50}
            w={220}
          />
          <Stack gap={6} pb={4}>
            <Switch
              label={t('filters.automation')}
              checked={f.automation}
              onChange={(e) => set('automation', e.currentTarget.checked ? '1' : '')}
            />
            <Switch
              label={t('filters.verified')}
              checked={f.verified}
              onChange={(e) => set('verified', e.currentTarget.checked ? '1' : '')}
            />
          </Stack>
        </Group>
      </Paper>
      {list.isError && !list.data ? (
        <Alert color="danger" role="alert" title={t('loadError')}>
          <Button size="xs" variant="light" color="danger" onClick={() => void list.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : !list.data ? (
        <Group justify="center" py="xl">
          <Loader aria-label={t('loading')} />
        </Group>
      ) : list.data.data.length === 0 ? (
        <Paper withBorder p="lg" radius="md">
          <Text c="dimmed" ta="center">
            {t('empty')}
          </Text>
        </Paper>
      ) : (
        <Table.ScrollContainer minWidth={980}>
          <Table highlightOnHover data-testid="external-orders">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('columns.needBy')}</Table.Th>
                <Table.Th>{t('columns.order')}</Table.Th>
                <Table.Th>{t('columns.patient')}</Table.Th>
                <Table.Th>{t('columns.drug')}</Table.Th>
                <Table.Th>{t('columns.supply')}</Table.Th>
                <Table.Th>{t('columns.sig')}</Table.Th>
                <Table.Th>{t('columns.status')}</Table.Th>
                <Table.Th>{t('columns.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.data.map((o) => {
                const x = o.external_patient;
                const pharmacyName = `${x.first_name} ${x.last_name}`;
                return (
                  <Table.Tr key={o.id} data-testid={`order-${o.order_number}`}>
                    <Table.Td>{day.format(new Date(`${o.need_by_date}T00:00:00Z`))}</Table.Td>
                    <Table.Td>
                      {o.order_number}
                      {o.automation && (
                        <Text size="xs" c="dimmed">
                          {t('automation')}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{pharmacyName}</Text>
                      {x.patient ? (
                        <Text size="xs" c="dimmed">
                          {t('linkedTo')}:{' '}
                          <Anchor
                            component={Link}
                            to={`/patient/${x.patient.id}?tab=medication`}
                            size="xs"
                            underline="always"
                          >
                            {`${x.patient.first_name} ${x.patient.last_name}`}
                          </Anchor>
                        </Text>
                      ) : (
                        <Button size="compact-xs" variant="light" onClick={() => setMatching(x)}>
                          {t('match.open', { name: pharmacyName })}
                        </Button>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {[o.drug_name, o.strength].filter(Boolean).join(' ')}
                      {o.ndc && (
                        <Text size="xs" c="dimmed">
                          {t('ndc', { ndc: o.ndc })}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{t('supply', { quantity: o.quantity, count: o.days_supply })}</Table.Td>
                    <Table.Td maw={240}>
                      <Text size="sm">{o.sig}</Text>
                      <Text size="xs" c="dimmed">
                        {o.times.join(' · ')}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge status={o.status} />
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        {x.patient && (
                          <Button
                            size="compact-sm"
                            variant="light"
                            onClick={() =>
                              setReview({
                                userId: x.patient!.id,
                                date: o.need_by_date,
                                name: `${x.patient!.first_name} ${x.patient!.last_name}`,
                              })
                            }
                            aria-label={t('review.openFor', { order: o.order_number })}
                          >
                            {t('review.open')}
                          </Button>
                        )}
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          onClick={() => setOrderOpen(o)}
                          aria-label={t('order.openFor', { order: o.order_number })}
                        >
                          {t('order.open')}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list.data && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('pageInfo', {
              page: list.data.current_page,
              last: list.data.last_page,
              count: list.data.total,
            })}
          </Text>
          {list.data.last_page > 1 && (
            <Pagination total={list.data.last_page} value={f.page} onChange={(p) => set('page', String(p))} />
          )}
        </Group>
      )}
      {importing && <ImportModal programId={programId} onClose={() => setImporting(false)} />}
      {matching && <MatchModal external={matching} onClose={() => setMatching(null)} />}
      <ReviewDrawer programId={programId} target={review} onClose={() => setReview(null)} />
      <OrderDrawer order={orderOpen} onClose={() => setOrderOpen(null)} />
    </Stack>
  );
}
