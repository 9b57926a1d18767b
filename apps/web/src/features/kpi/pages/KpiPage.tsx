import type { KpiReport } from '@caredeck/contracts';
import { Alert, Button, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DateRangeFields, PeriodPresets } from '../../../shared/ui/PeriodFields';
import { shortDayLabel, usePeriodParams } from '../../../shared/ui/period';
import { recordDateTime } from '../../../shared/ui/recordDateTime';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useActiveScope } from '../../tenancy/scope';
import { downloadKpi, useKpi, useLiveKpi } from '../api';
import '../i18n';

const PRESETS = ['7', '30', '90'] as const;
/**
 * /kpi: the program's (or, in enterprise scope, every program's) indicators for a period kept in the URL:
 * adherence and compliance from the same engine as the patient calendars, doses due, missed and extra,
 * patients by adherence band, dispensers seen, readings out of range, adherence per day, and the export.
 */
export function KpiPage() {
  const { t, i18n } = useTranslation('kpi');
  const scope = useActiveScope();
  const period = usePeriodParams(30);
  const { start, end, valid } = period;
  const enterpriseId = scope?.enterpriseScope ? (scope.enterprise?.id ?? null) : null;
  const kpi = useKpi({ programId: valid ? (scope?.programId ?? 0) : 0, enterpriseId }, start, end);
  useLiveKpi();

  const exportSheet = async () => {
    try {
      const file = await downloadKpi(scope!.programId, start, end);
      toast.success(t('exported', { file }));
    } catch (error) {
      toastErrors(error, { title: t('exportFailed') });
    }
  };

  const scopeName = enterpriseId
    ? t('scopeEnterprise', { name: scope?.enterprise?.name ?? '' })
    : t('scopeProgram', { name: scope?.program?.name ?? '' });

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Title order={1} fz="h2">
            {i18n.t('nav.kpi')}
          </Title>
          <Text c="dimmed" size="sm">
            {scopeName}
          </Text>
        </div>
        {!enterpriseId && (
          <Button
            leftSection={<IconDownload size={16} />}
            variant="default"
            onClick={() => void exportSheet()}
            disabled={!valid}
          >
            {t('export')}
          </Button>
        )}
      </Group>
      <Group align="flex-end" wrap="wrap">
        <PeriodPresets
          period={period}
          presets={PRESETS}
          label={t('period')}
          presetLabel={(p) => t(`presets.${p as '7'}`)}
        />
        <DateRangeFields period={period} fromLabel={t('from')} toLabel={t('to')} />
        {kpi.isFetching && <Loader size="sm" aria-label={t('loading')} />}
        {kpi.data && (
          // A large program's KPI may be up to half a minute old (ADR 077): say when it was computed.
          <Text size="sm" c="dimmed" data-testid="kpi-as-of">
            {t('asOf', { time: recordDateTime(kpi.data.generated_at) })}
          </Text>
        )}
      </Group>
      {!valid ? (
        <Alert color="yellow">{t('invalidPeriod')}</Alert>
      ) : kpi.isError && !kpi.data ? (
        <Alert color="red" title={t('loadError')}>
          <Button size="xs" variant="light" onClick={() => void kpi.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : !kpi.data ? (
        <Group justify="center" py="xl">
          <Loader aria-label={t('loading')} />
        </Group>
      ) : (
        <KpiView kpi={kpi.data} />
      )}
    </Stack>
  );
}

function KpiView({ kpi }: { kpi: KpiReport }) {
  const { t, i18n } = useTranslation('kpi');
  const number = new Intl.NumberFormat(i18n.language);
  const percent = (v: number | null) => (v === null ? t('none') : `${v.toFixed(2)} %`);
  const bandsTotal = kpi.adherence_bands.high + kpi.adherence_bands.medium + kpi.adherence_bands.low;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <Tile label={t('tiles.adherence')} value={percent(kpi.doses.adherence)} id="adherence" />
        <Tile label={t('tiles.compliance')} value={percent(kpi.doses.compliance)} id="compliance" />
        <Tile label={t('tiles.due')} value={number.format(kpi.doses.due)} id="due" />
        <Tile label={t('tiles.missed')} value={number.format(kpi.doses.missed)} id="missed" />
        <Tile label={t('tiles.extra')} value={number.format(kpi.doses.extra)} id="extra" />
        <Tile
          label={t('tiles.patients')}
          value={number.format(kpi.patients.with_doses_due)}
          hint={t('ofTotal', { total: number.format(kpi.patients.enrolled) })}
          id="patients"
        />
        <Tile
          label={t('tiles.dispensers')}
          value={number.format(kpi.devices.seen_24h)}
          hint={t('ofTotal', { total: number.format(kpi.devices.dispensers) })}
          id="dispensers"
        />
        <Tile
          label={t('tiles.outOfRange')}
          value={number.format(kpi.readings.out_of_range)}
          hint={t('ofTotal', { total: number.format(kpi.readings.measurements) })}
          id="out-of-range"
        />
      </SimpleGrid>
      <Paper withBorder p="md" radius="md">
        <Title order={2} fz="h5" mb="sm">
          {t('bands.title')}
        </Title>
        <Stack gap={6}>
          {(['high', 'medium', 'low'] as const).map((band) => {
            const count = kpi.adherence_bands[band];
            const width = bandsTotal ? (count / bandsTotal) * 100 : 0;
            const color = band === 'high' ? 'teal' : band === 'medium' ? 'yellow' : 'red';
            return (
              <Group key={band} gap="sm" wrap="nowrap" data-testid={`band-${band}`}>
                <Text size="sm" w={130}>
                  {t(`bands.${band}`)}
                </Text>
                <div
                  style={{
                    flex: 1,
                    background: 'var(--mantine-color-default-border)',
                    borderRadius: 4,
                    height: 12,
                  }}
                >
                  <div
                    style={{
                      width: `${width}%`,
                      height: 12,
                      borderRadius: 4,
                      background: `var(--mantine-color-${color}-filled)`,
                    }}
                  />
                </div>
                <Text size="sm" w={48} ta="right">
                  {number.format(count)}
                </Text>
              </Group>
            );
          })}
        </Stack>
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Title order={2} fz="h5" mb="sm">
          {t('daily.title')}
        </Title>
        {kpi.daily.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('daily.empty')}
          </Text>
        ) : (
          <DailyBars days={kpi.daily} />
        )}
      </Paper>
    </Stack>
  );
}

function Tile({ label, value, hint, id }: { label: string; value: string; hint?: string; id: string }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Group gap={6} align="baseline">
        <Text fw={700} size="xl" data-testid={`kpi-${id}`}>
          {value}
        </Text>
        {hint && (
          <Text size="xs" c="dimmed">
            {hint}
          </Text>
        )}
      </Group>
    </Paper>
  );
}

/** Adherence per day as bars (green at 80 % and above, yellow from 50 %, red below). */
function DailyBars({ days }: { days: KpiReport['daily'] }) {
  const { t, i18n } = useTranslation('kpi');
  const W = 720;
  const H = 160;
  const barW = W / days.length;
  const label = (date: string) => shortDayLabel(date, i18n.language);
  return (
    <svg viewBox={`0 0 ${W} ${H + 18}`} width="100%" role="img" aria-label={t('daily.title')}>
      {days.map((d, i) => {
        const v = d.adherence ?? 0;
        const h = (v / 100) * H;
        const color = v >= 80 ? 'teal' : v >= 50 ? 'yellow' : 'red';
        return (
          <rect
            key={d.date}
            x={i * barW + 1}
            y={H - h}
            width={Math.max(1, barW - 2)}
            height={h}
            fill={`var(--mantine-color-${color}-filled)`}
          >
            <title>{t('daily.bar', { date: label(d.date), value: v.toFixed(0), count: d.due })}</title>
          </rect>
        );
      })}
      <text x={0} y={H + 14} fontSize="11" fill="var(--mantine-color-dimmed)">
        {label(days[0]!.date)}
      </text>
      <text x={W} y={H + 14} fontSize="11" textAnchor="end" fill="var(--mantine-color-dimmed)">
        {label(days.at(-1)!.date)}
      </text>
    </svg>
  );
}
