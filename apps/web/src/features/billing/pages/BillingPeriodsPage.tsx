import type { BillingPeriodRow, BillingTimeTrack } from '@caredeck/contracts';
import { minutesSeconds } from '@caredeck/domain';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  Loader,
  Pagination,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { DateField } from '../../../shared/ui/DateField';
import { CALENDAR_DATE } from '../../../shared/ui/period';
import { useCurrentUser } from '../../identity/api';
import { useActiveScope } from '../../tenancy/scope';
import { PeriodExportButtons } from '../components/PeriodExportButtons';
import { hasPeriodFilters, PeriodFilterBar, readPeriodFilters } from '../components/PeriodFilterBar';
import { useBillingPeriods } from '../periods-api';
import '../periods-i18n';

const PER_PAGE = 25;

/**
 * /billings?view=evidence (issue 30): per patient the 30-day device period and this month's time under the 2026
 * rules, each code with its evidence (device-day dates, time entries) and what the next code needs. Time is
 * shown as minutes:seconds, truncated (19:59 is not 20 minutes).
 */
export function BillingPeriodsPage() {
  const { t } = useTranslation('billingPeriods');
  const scope = useActiveScope();
  const programId = scope?.programId ?? 0;
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const date = params.get('date') ?? '';
  const filters = readPeriodFilters(params);
  const me = useCurrentUser()?.id ?? null;
  // "Assigned to me" waits for the signed-in user rather than asking for everyone first.
  const query = {
    date,
    code: filters.code,
    status: filters.status,
    assignee_id: filters.mine ? me : null,
  };
  const result = useBillingPeriods(filters.mine && !me ? 0 : programId, {
    page,
    per_page: PER_PAGE,
    ...query,
  });
  const set = (patch: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next);
  };

  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz="h2">
          {t('title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('subtitle')}
        </Text>
        <Anchor component={Link} to="/billings" size="sm">
          {t('back')}
        </Anchor>
      </div>
      <DateField
        label={t('day')}
        value={date}
        onChange={(day) => CALENDAR_DATE.test(day) && set({ date: day, page: '' })}
        maw={220}
      />
      <PeriodFilterBar value={filters} onChange={set} />
      <PeriodExportButtons programId={filters.mine && !me ? 0 : programId} query={query} />
      <PeriodsResult
        result={result}
        filtered={hasPeriodFilters(filters)}
        page={page}
        onPage={(p) => set({ page: String(p) })}
      />
    </Stack>
  );
}

function PeriodsResult({
  result,
  filtered,
  page,
  onPage,
}: {
  result: ReturnType<typeof useBillingPeriods>;
  filtered: boolean;
  page: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation('billingPeriods');
  return (
    <>
      {result.isError ? (
        <Alert color="danger" role="alert">
          {t('loadError')}
        </Alert>
      ) : !result.data ? (
        <Loader aria-label={t('title')} />
      ) : result.data.data.length === 0 ? (
        <Text data-testid="billing-periods-empty">{filtered ? t('emptyFiltered') : t('empty')}</Text>
      ) : (
        <>
          <PeriodsTable rows={result.data.data} />
          {result.data.last_page > 1 && (
            <Pagination
              total={result.data.last_page}
              value={page}
              onChange={(p) => onPage(p)}
              getControlProps={() => ({ 'aria-label': t('title') })}
            />
          )}
        </>
      )}
    </>
  );
}

function PeriodsTable({ rows }: { rows: BillingPeriodRow[] }) {
  const { t } = useTranslation('billingPeriods');
  const [open, setOpen] = useState<number | null>(null);
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table striped layout="fixed" data-testid="billing-periods-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('columns.patient')}</Table.Th>
            <Table.Th>{t('columns.period')}</Table.Th>
            <Table.Th>{t('columns.device')}</Table.Th>
            <Table.Th>{t('columns.rpm')}</Table.Th>
            <Table.Th>{t('columns.ccm')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => {
            const name = `${r.patient.last_name}, ${r.patient.first_name}`;
            const id = `billing-evidence-${r.patient.id}`;
            const expanded = open === r.patient.id;
            return (
              <Fragment key={r.patient.id}>
                <Table.Tr data-testid="billing-period-row">
                  <Table.Td>
                    <Button
                      variant="subtle"
                      size="compact-sm"
                      aria-expanded={expanded}
                      aria-controls={id}
                      aria-label={t('showEvidence', { name })}
                      onClick={() => setOpen(expanded ? null : r.patient.id)}
                    >
                      {name}
                    </Button>
                  </Table.Td>
                  <Table.Td>
                    {r.period
                      ? t('periodRange', {
                          start: r.period.start,
                          end: r.period.end,
                          left: r.period.days_left,
                        })
                      : t('noSupply')}
                  </Table.Td>
                  <Table.Td>
                    {r.device ? (
                      <Stack gap={2}>
                        <Text size="sm">{t('days', { count: r.device.dates.length })}</Text>
                        <Codes codes={[r.device.setup_code, r.device.code].filter((c): c is string => !!c)} />
                        {r.device.next && (
                          <Text size="xs" c="dimmed">
                            {t('needDays', { code: r.device.next.code, count: r.device.next.days_needed })}
                          </Text>
                        )}
                      </Stack>
                    ) : (
                      '–'
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Time track={r.rpm_time} />
                    {r.physician_time && <PhysicianTime track={r.physician_time} />}
                  </Table.Td>
                  <Table.Td>
                    <Time track={r.ccm_time} />
                  </Table.Td>
                </Table.Tr>
                {expanded && (
                  <Table.Tr>
                    <Table.Td colSpan={5} id={id} data-testid="billing-evidence">
                      <Evidence row={r} />
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Codes({ codes }: { codes: string[] }) {
  const { t } = useTranslation('billingPeriods');
  if (codes.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('none')}
      </Text>
    );
  return (
    <Group gap={4}>
      {codes.map((c) => (
        <Badge key={c} variant="light" color="success">
          {c}
        </Badge>
      ))}
    </Group>
  );
}

function Time({ track }: { track: BillingTimeTrack }) {
  const { t } = useTranslation('billingPeriods');
  return (
    <Stack gap={2}>
      <Text size="sm" data-testid="billing-time-shown">
        {track.shown}
      </Text>
      <Codes codes={track.codes.map((c) => (c.units > 1 ? `${c.code} ×${c.units}` : c.code))} />
      {track.next && (
        <Text size="xs" c="dimmed">
          {track.next.needs_interactive
            ? t('needInteractive', { code: track.next.code })
            : t('needSeconds', { code: track.next.code, time: minutesSeconds(track.next.seconds_needed) })}
        </Text>
      )}
    </Stack>
  );
}

/** 99091: physicians' RPM time in the 30-day period, with the code once earned. */
function PhysicianTime({ track }: { track: BillingTimeTrack }) {
  const { t } = useTranslation('billingPeriods');
  return (
    <Group gap={4} mt={4}>
      <Text size="xs" c="dimmed" data-testid="billing-physician-time">
        {t('physicianTime', { time: track.shown })}
      </Text>
      {track.codes.map((c) => (
        <Badge key={c.code} variant="light" color="success">
          {c.code}
        </Badge>
      ))}
    </Group>
  );
}

function Evidence({ row }: { row: BillingPeriodRow }) {
  const { t, i18n } = useTranslation('billingPeriods');
  const when = new Intl.DateTimeFormat(i18n.language, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: row.time_zone,
  });
  const entries = [
    ...row.rpm_time.entries.map((e) => ({ ...e, type: 'RPM' })),
    ...row.ccm_time.entries.map((e) => ({ ...e, type: 'CCM' })),
  ];
  return (
    <Group align="flex-start" gap="xl">
      <div>
        <Title order={2} fz="sm">
          {t('evidenceDates')}
        </Title>
        {row.device && row.device.dates.length > 0 ? (
          <List size="sm" data-testid="evidence-dates">
            {row.device.dates.map((d) => (
              <List.Item key={d}>{d}</List.Item>
            ))}
          </List>
        ) : (
          <Text size="sm">{t('noDates')}</Text>
        )}
      </div>
      <div>
        <Title order={2} fz="sm">
          {t('evidenceEntries')}
        </Title>
        {entries.length > 0 ? (
          <List size="sm" data-testid="evidence-entries">
            {entries.map((e) => (
              <List.Item key={e.id}>
                {e.type} · {when.format(new Date(e.started_at))} · {minutesSeconds(e.seconds)}
                {e.interactive ? ` · ${t('interactive')}` : ''}
              </List.Item>
            ))}
          </List>
        ) : (
          <Text size="sm">{t('noEntries')}</Text>
        )}
      </div>
    </Group>
  );
}
