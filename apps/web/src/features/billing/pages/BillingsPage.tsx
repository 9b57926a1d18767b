import { BILLING_STATUSES, type BillingRow, type BillingStatus } from '@caredeck/contracts';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Pagination,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconCircleCheck, IconDownload, IconPencil, IconPhoneCall } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { DateField } from '../../../shared/ui/DateField';
import { CALENDAR_DATE, localToday } from '../../../shared/ui/period';
import { SearchBox } from '../../../shared/ui/SearchBox';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useActiveScope } from '../../tenancy/scope';
import {
  downloadBilling,
  type ReportFilter,
  useBillingCodes,
  useBillingReport,
  useSetBillingStatus,
} from '../api';
import { monthAround, periodOf } from '../period';
import '../i18n';

const PER_PAGE = ['25', '50', '100'] as const;

/** The evidence view under the 2026 rules (issue 30), in a chunk of its own loaded when asked for. */
const EvidenceView = lazy(() =>
  import('./BillingPeriodsPage').then((m) => ({ default: m.BillingPeriodsPage })),
);

const AtRiskView = lazy(() => import('./AtRiskPage').then((m) => ({ default: m.AtRiskPage })));

/** /billings: the report of the period, or with ?view=evidence the codes with their evidence (2026 rules). */
export function BillingsPage() {
  const [params] = useSearchParams();
  if (params.get('view') === 'evidence')
    return (
      <Suspense fallback={<Loader />}>
        <EvidenceView />
      </Suspense>
    );
  if (params.get('view') === 'at-risk')
    return (
      <Suspense fallback={<Loader />}>
        <AtRiskView />
      </Suspense>
    );
  return <ReportView />;
}
const STATUS_COLORS: Record<BillingStatus, string> = {
  billable: 'success',
  not_billable: 'gray',
  on_hold: 'secondary',
};

/** The filter of the URL (period, page, search, status, only patients earning a code); all history entries. */
function useReportParams() {
  const [params, setParams] = useSearchParams();
  const period = periodOf(params);
  const status = params.get('status');
  const filter: ReportFilter = {
    start: period.start,
    end: period.end,
    page: Math.max(1, Number(params.get('page')) || 1),
    per_page: (PER_PAGE as readonly string[]).includes(params.get('per_page') ?? '')
      ? Number(params.get('per_page'))
      : 25,
    search: params.get('search') ?? '',
    status: (BILLING_STATUSES as readonly string[]).includes(status ?? '') ? (status as BillingStatus) : '',
    only_billable: params.get('only') === '1',
  };
  const update = (changes: Record<string, string | null>, keepPage = false) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [k, v] of Object.entries(changes)) {
        if (v === null || v === '') next.delete(k);
        else next.set(k, v);
      }
      if (!keepPage) next.delete('page');
      return next;
    });
  return { period, filter, update };
}

/**
 * /billings: the program's billing for a period (this month by default): per patient the days with readings,
 * RPM and CCM minutes and the codes earned, the period's totals, each patient's billing status, and the
 * spreadsheet. Filters, period and page live in the URL.
 */
function ReportView() {
  const { t, i18n } = useTranslation('billing');
  const scope = useActiveScope();
  const programId = scope?.programId ?? 0;
  const { period, filter, update } = useReportParams();
  const report = useBillingReport(programId, filter, period.valid);
  const [editing, setEditing] = useState<BillingRow | null>(null);

  const download = async () => {
    try {
      toast.success(t('downloaded', { file: await downloadBilling(programId, filter) }));
    } catch (error) {
      toastErrors(error, { title: t('downloadFailed') });
    }
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" align="flex-start">
        <div>
          <Title order={1} fz="h2">
            {i18n.t('nav.billing')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('subtitle', { name: scope?.program?.name ?? '' })}
          </Text>
          <Anchor component={Link} to="/billings?view=evidence" size="sm">
            {t('evidenceLink')}
          </Anchor>{' '}
          <Anchor component={Link} to="/billings?view=at-risk" size="sm">
            {t('atRiskLink')}
          </Anchor>
        </div>
        <Button
          leftSection={<IconDownload size={16} aria-hidden />}
          variant="default"
          onClick={() => void download()}
          disabled={!period.valid || programId === 0}
        >
          {t('download')}
        </Button>
      </Group>
      <Group align="flex-end" wrap="wrap">
        <SegmentedControl
          aria-label={t('period')}
          value={period.preset ?? ''}
          onChange={(value) => {
            const month = monthAround(localToday(), value === 'last' ? -1 : 0);
            update({ start: month.start, end: month.end });
          }}
          data={[
            { value: 'this', label: t('presets.this') },
            { value: 'last', label: t('presets.last') },
          ]}
        />
        <DateField
          label={t('from')}
          value={period.start}
          max={CALENDAR_DATE.test(period.end) ? period.end : undefined}
          onChange={(day) => CALENDAR_DATE.test(day) && update({ start: day })}
        />
        <DateField
          label={t('to')}
          value={period.end}
          min={CALENDAR_DATE.test(period.start) ? period.start : undefined}
          onChange={(day) => CALENDAR_DATE.test(day) && update({ end: day })}
        />
        {report.isFetching && <Loader size="sm" aria-label={t('loading')} />}
      </Group>
      <Group align="flex-end" wrap="wrap">
        <SearchBox
          label={t('search')}
          placeholder={t('search')}
          value={filter.search}
          onSearch={(search) => update({ search })}
          w={{ base: '100%', sm: 320 }}
        />
        <Select
          label={t('statusFilter')}
          value={filter.status}
          onChange={(value) => update({ status: value ?? '' })}
          data={[
            { value: '', label: t('allStatuses') },
            ...BILLING_STATUSES.map((s) => ({ value: s, label: t(`statuses.${s}`) })),
          ]}
          allowDeselect={false}
          w={200}
        />
        <Switch
          label={t('onlyBillable')}
          checked={filter.only_billable}
          onChange={(e) => update({ only: e.currentTarget.checked ? '1' : null })}
          mb={8}
        />
      </Group>
      {!period.valid ? (
        <Alert color="yellow">{t('invalidPeriod')}</Alert>
      ) : report.isError && !report.data ? (
        <Alert color="danger" title={t('loadError')} role="alert">
          <Button size="xs" variant="light" color="danger" onClick={() => void report.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : !report.data ? (
        <Group justify="center" py="xl">
          <Loader aria-label={t('loading')} />
        </Group>
      ) : (
        <>
          <Summary summary={report.data.summary} />
          <ReportTable rows={report.data.data} onEdit={setEditing} />
          <Group justify="space-between" wrap="wrap">
            <Text size="sm" c="dimmed">
              {t('pageOf', {
                page: report.data.current_page,
                pages: Math.max(1, report.data.last_page),
                count: report.data.total,
              })}
            </Text>
            <Group gap="sm">
              <Select
                aria-label={t('perPage')}
                value={String(filter.per_page)}
                data={[...PER_PAGE]}
                onChange={(value) => update({ per_page: value })}
                allowDeselect={false}
                w={90}
              />
              {report.data.last_page > 1 && (
                <Pagination
                  total={report.data.last_page}
                  value={filter.page}
                  onChange={(page) => update({ page: String(page) }, true)}
                />
              )}
            </Group>
          </Group>
          <CodesLegend programId={programId} />
        </>
      )}
      {editing && <StatusModal row={editing} programId={programId} onClose={() => setEditing(null)} />}
    </Stack>
  );
}

function Summary({
  summary,
}: {
  summary: {
    patients: number;
    billable_patients: number;
    rpm_minutes: number;
    ccm_minutes: number;
    codes: Record<string, number>;
  };
}) {
  const { t, i18n } = useTranslation('billing');
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const codes = Object.entries(summary.codes).filter(([, n]) => n > 0);
  return (
    <SimpleGrid cols={{ base: 2, md: 5 }} spacing="sm">
      <Tile label={t('summary.patients')} value={number.format(summary.patients)} id="patients" />
      <Tile label={t('summary.billable')} value={number.format(summary.billable_patients)} id="billable" />
      <Tile label={t('summary.rpm')} value={number.format(summary.rpm_minutes)} id="rpm" />
      <Tile label={t('summary.ccm')} value={number.format(summary.ccm_minutes)} id="ccm" />
      <Paper withBorder p="sm" radius="md">
        <Text size="xs" c="dimmed">
          {t('summary.codes')}
        </Text>
        <Group gap={4} mt={4} data-testid="billing-codes-summary">
          {codes.length === 0 ? (
            <Text size="sm">{t('noCodes')}</Text>
          ) : (
            codes.map(([code, n]) => (
              <Badge key={code} variant="default">
                {code} × {n}
              </Badge>
            ))
          )}
        </Group>
      </Paper>
    </SimpleGrid>
  );
}

function Tile({ label, value, id }: { label: string; value: string; id: string }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl" data-testid={`billing-${id}`}>
        {value}
      </Text>
    </Paper>
  );
}

function ReportTable({ rows, onEdit }: { rows: BillingRow[]; onEdit: (row: BillingRow) => void }) {
  const { t, i18n } = useTranslation('billing');
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  if (rows.length === 0)
    return (
      <Paper withBorder p="lg" radius="md">
        <Text c="dimmed" ta="center">
          {t('empty')}
        </Text>
      </Paper>
    );
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped highlightOnHover stickyHeader layout="fixed" data-testid="billing-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="24%">{t('columns.patient')}</Table.Th>
            <Table.Th w="11%">{t('columns.mrn')}</Table.Th>
            <Table.Th w="16%">{t('columns.status')}</Table.Th>
            <Table.Th w="12%">{t('columns.days')}</Table.Th>
            <Table.Th w="9%" ta="right">
              {t('columns.rpm')}
            </Table.Th>
            <Table.Th w="9%" ta="right">
              {t('columns.ccm')}
            </Table.Th>
            <Table.Th>{t('columns.codes')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const name = `${row.patient.last_name}, ${row.patient.first_name}`;
            return (
              <Table.Tr key={row.patient.id} data-testid={`billing-row-${row.patient.id}`}>
                <Table.Td>
                  <Anchor component={Link} to={`/patient/${row.patient.id}?tab=time`} fw={500}>
                    {name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{row.patient.mrn ?? '–'}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Badge variant="light" color={STATUS_COLORS[row.status]}>
                      {t(`statuses.${row.status}`)}
                    </Badge>
                    <Tooltip label={t('changeStatus', { name })}>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={t('changeStatus', { name })}
                        onClick={() => onEdit(row)}
                      >
                        <IconPencil size={14} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Table.Td>
                <Table.Td>
                  {row.reading_days >= 16 ? (
                    <Group gap={4} wrap="nowrap">
                      <Text size="sm">{row.reading_days}</Text>
                      <Tooltip label={t('daysMet')}>
                        <IconCircleCheck
                          size={16}
                          color="var(--mantine-color-success-7)"
                          aria-label={t('daysMet')}
                        />
                      </Tooltip>
                    </Group>
                  ) : (
                    <Text size="sm" c="dimmed">
                      {t('daysOf', { days: row.reading_days })}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    {row.rpm_interactive && (
                      <Tooltip label={t('interactive')}>
                        <IconPhoneCall size={14} aria-label={t('interactive')} />
                      </Tooltip>
                    )}
                    {number.format(row.rpm_minutes)}
                  </Group>
                </Table.Td>
                <Table.Td ta="right">{number.format(row.ccm_minutes)}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {row.codes.length === 0 ? (
                      <Text size="sm" c="dimmed">
                        {t('noCodes')}
                      </Text>
                    ) : (
                      row.codes.map((c) => (
                        <Badge
                          key={c.code}
                          variant={row.billable ? 'light' : 'outline'}
                          color={row.billable ? 'primary' : 'gray'}
                        >
                          {c.units > 1 ? `${c.code} × ${c.units}` : c.code}
                        </Badge>
                      ))
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function CodesLegend({ programId }: { programId: number }) {
  const { t } = useTranslation('billing');
  const codes = useBillingCodes(programId);
  if (!codes.data) return null;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="billing-legend">
      <Title order={2} fz="h5" mb="xs" id="billing-legend">
        {t('codesLegend')}
      </Title>
      <Table>
        <Table.Tbody>
          {codes.data.data.map((c) => (
            <Table.Tr key={c.code}>
              <Table.Td w={70} fw={600}>
                {c.code}
              </Table.Td>
              <Table.Td>{c.description}</Table.Td>
              <Table.Td c="dimmed">{c.rule}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function StatusModal({
  row,
  programId,
  onClose,
}: {
  row: BillingRow;
  programId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation('billing');
  const name = `${row.patient.first_name} ${row.patient.last_name}`;
  const [status, setStatus] = useState<BillingStatus>(row.status);
  const [reason, setReason] = useState('');
  const save = useSetBillingStatus(programId);
  const submit = () =>
    save.mutate(
      { patientId: row.patient.id, status, reason: reason.trim() || null },
      {
        onSuccess: () => {
          toast.success(t('statusUpdated', { name, status: t(`statuses.${status}`) }));
          onClose();
        },
        onError: (error) => toastErrors(error),
      },
    );
  return (
    <Modal opened onClose={onClose} title={t('statusModal.title', { name })}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack>
          <SegmentedControl
            aria-label={t('statusModal.status')}
            value={status}
            onChange={(v) => setStatus(v as BillingStatus)}
            data={BILLING_STATUSES.map((s) => ({ value: s, label: t(`statuses.${s}`) }))}
            fullWidth
          />
          <TextInput
            label={t('statusModal.reason')}
            description={t('statusModal.reasonHint')}
            value={reason}
            maxLength={200}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('statusModal.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('statusModal.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
