import { PATIENT_STATUSES, STATUS_CHANGE_SOURCES, type StatusChangeSource } from '@caredeck/contracts';
import { Alert, Button, Group, Loader, Pagination, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DateRangeFields, PeriodPresets } from '../../../shared/ui/PeriodFields';
import { usePeriodParams } from '../../../shared/ui/period';
import { SearchBox } from '../../../shared/ui/SearchBox';
import { useCurrentUser } from '../../identity/api';
import { useStaffOptions } from '../../staff/api';
import { useActiveScope } from '../../tenancy/scope';
import { type StatusLogFilters, useStatusLog } from '../api';
import { StatusLogTable } from '../components/StatusLogTable';
import '../i18n';

const PRESETS = ['7', '30', '90'] as const;
const PER_PAGE = ['25', '50', '100'] as const;
const FILTER_KEYS = ['status', 'admin', 'source', 'search', 'program'] as const;
const oneOf = <T extends string>(list: readonly T[], value: string | null): T | '' =>
  list.includes(value as T) ? (value as T) : '';

/** The list's parameters as the URL holds them (period, filters, page), every change a history entry. */
function useLogParams() {
  const [params, setParams] = useSearchParams();
  const period = usePeriodParams(30);
  const id = (key: string) => (/^[1-9]\d{0,15}$/.test(params.get(key) ?? '') ? params.get(key)! : '');
  const filters: StatusLogFilters = {
    start: period.start,
    end: period.end,
    page: Math.max(1, Number(params.get('page')) || 1),
    per_page: Number(oneOf(PER_PAGE, params.get('per_page')) || 25),
    status: oneOf(PATIENT_STATUSES, params.get('status')),
    admin: id('admin'),
    source: oneOf(STATUS_CHANGE_SOURCES, params.get('source')),
    search: params.get('search') ?? '',
    program: id('program'),
  };
  /** Sets (or, blank, removes) parameters; anything but a page change starts again from page 1. */
  const update = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      if (!('page' in changes)) next.delete('page');
      return next;
    });
  return { period, filters, update };
}

/**
 * /status-logs (02 §2; ADR 047): the program's log of patients' status changes, newest first: who changed which
 * patient's status, from what to what, how (one patient, several at once, a bulk action, enrolment,
 * (in)activation), why when a reason was given, and when. On enterprise scope: every program of the enterprise,
 * or one. Period, filters and page live in the URL.
 */
export function StatusLogsPage() {
  const { t, i18n } = useTranslation('statusLogs');
  const common = useTranslation().t;
  const scope = useActiveScope();
  const user = useCurrentUser();
  const { period, filters: f, update } = useLogParams();
  const log = useStatusLog(scope, f, period.valid);
  const enterprise = scope?.enterpriseScope && scope.enterprise ? scope.enterprise : null;
  const programs = enterprise ? (user?.programs ?? []).filter((p) => p.enterprise_id === enterprise.id) : [];
  // "Changed by" lists one program's staff: the active one, or on enterprise scope the program chosen.
  const staffProgram = enterprise ? Number(f.program) || 0 : (scope?.programId ?? 0);
  const staff = useStaffOptions(staffProgram);
  const filtered = FILTER_KEYS.some((key) => f[key] !== '');
  const data = log.data;

  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz="h2">
          {i18n.t('nav.statusLogs')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('subtitle')}
        </Text>
      </div>
      <Paper withBorder p="sm" radius="md" component="section" aria-label={t('filters.label')}>
        <Stack gap="sm">
          <Group align="flex-end" wrap="wrap" gap="sm">
            <PeriodPresets
              period={period}
              presets={PRESETS}
              label={t('filters.period')}
              presetLabel={(p) => t(`presets.${p as '7'}`)}
            />
            <DateRangeFields period={period} fromLabel={t('filters.from')} toLabel={t('filters.to')} />
            {log.isFetching && <Loader size="sm" aria-label={t('loading')} />}
          </Group>
          <Group align="flex-end" wrap="wrap" gap="sm">
            <SearchBox
              label={t('filters.search')}
              value={f.search}
              onSearch={(search) => update({ search })}
              w={{ base: '100%', sm: 240 }}
            />
            {enterprise && (
              <Select
                label={t('filters.program')}
                value={f.program}
                onChange={(value) => update({ program: value, admin: null })}
                data={[
                  { value: '', label: t('filters.allPrograms') },
                  ...programs.map((p) => ({ value: String(p.id), label: p.name })),
                ]}
                allowDeselect={false}
                w={200}
              />
            )}
            <Select
              label={t('filters.status')}
              value={f.status}
              onChange={(value) => update({ status: value })}
              data={[
                { value: '', label: t('filters.anyStatus') },
                ...PATIENT_STATUSES.map((s) => ({ value: s, label: common(`patients.status.${s}`) })),
              ]}
              allowDeselect={false}
              w={170}
            />
            {staffProgram > 0 && (
              <Select
                label={t('filters.staff')}
                value={f.admin}
                onChange={(value) => update({ admin: value })}
                data={[{ value: '', label: t('filters.anyone') }, ...staff]}
                searchable
                allowDeselect={false}
                w={200}
              />
            )}
            <Select
              label={t('filters.source')}
              value={f.source}
              onChange={(value) => update({ source: value })}
              data={[
                { value: '', label: t('filters.anyWay') },
                ...STATUS_CHANGE_SOURCES.map((s: StatusChangeSource) => ({
                  value: s,
                  label: t(`sources.${s}`),
                })),
              ]}
              allowDeselect={false}
              w={220}
            />
            {filtered && (
              <Button
                variant="subtle"
                onClick={() => update(Object.fromEntries(FILTER_KEYS.map((key) => [key, null])))}
              >
                {t('filters.clear')}
              </Button>
            )}
          </Group>
        </Stack>
      </Paper>
      {!period.valid ? (
        <Alert color="yellow">{t('invalidPeriod')}</Alert>
      ) : log.isError && !data ? (
        <Alert color="danger" title={t('loadError')} role="alert">
          <Button size="xs" variant="light" color="danger" onClick={() => void log.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : !data ? (
        <Group justify="center" py="xl">
          <Loader aria-label={t('loading')} />
        </Group>
      ) : data.data.length === 0 ? (
        <Paper withBorder p="lg" radius="md">
          <Text ta="center">{t('empty')}</Text>
          <Text ta="center" c="dimmed" size="sm">
            {t('emptyHint')}
          </Text>
        </Paper>
      ) : (
        <>
          <StatusLogTable rows={data.data} showProgram={enterprise !== null} />
          <Group justify="space-between" wrap="wrap">
            <Text size="sm" c="dimmed">
              {t('pageOf', {
                count: data.total,
                page: data.current_page,
                pages: data.last_page,
                total: new Intl.NumberFormat(i18n.language).format(data.total),
              })}
            </Text>
            <Group gap="sm">
              <Select
                aria-label={t('perPage')}
                value={String(f.per_page)}
                data={[...PER_PAGE]}
                onChange={(value) => update({ per_page: value })}
                allowDeselect={false}
                w={90}
              />
              {data.last_page > 1 && (
                <Pagination
                  total={data.last_page}
                  value={f.page}
                  onChange={(page) => update({ page: String(page) })}
                />
              )}
            </Group>
          </Group>
        </>
      )}
    </Stack>
  );
}
