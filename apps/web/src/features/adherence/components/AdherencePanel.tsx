import type { AdherenceReport, ClassifiedDoseView } from '@caredeck/contracts';
import { resolveDisplayZone } from '@caredeck/domain';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { type CSSProperties, type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdherence, useLivePatientData } from '../api';
import '../i18n';

type DoseState = ClassifiedDoseView['state'];

/** One colour per dose state, used by the calendar dots, the badges and the legend. */
export const STATE_COLORS: Record<DoseState, string> = {
  on_time: 'teal',
  late: 'yellow',
  missed: 'red',
  skipped: 'gray',
  partial: 'orange',
  pending: 'blue',
};
const STATES = Object.keys(STATE_COLORS) as DoseState[];

/** The badge's text in the page's text colour (Mantine's tinted text on a tint is under 4.5:1). */
const TEXT_ON_TINT = { color: 'var(--mantine-color-text)' } as CSSProperties;

/**
 * A dose state as a badge: the state's colour as the tint (or the outline of a pending dose) with the
 * page's text colour on it, so every state reads at WCAG AA contrast in every theme.
 */
function StateBadge({
  state,
  children,
  size,
}: {
  state: DoseState;
  children: ReactNode;
  size?: 'sm' | 'md';
}) {
  return (
    <Badge
      color={STATE_COLORS[state]}
      variant={state === 'pending' ? 'outline' : 'light'}
      size={size}
      style={TEXT_ON_TINT}
    >
      {children}
    </Badge>
  );
}

/** Today's date in a zone, as YYYY-MM-DD. */
export function todayIn(zone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

function monthBounds(month: string): { start: string; end: string; days: number; firstWeekday: number } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const firstWeekday = new Date(Date.UTC(y, m - 1, 1)).getUTCDay(); // 0 = Sunday
  return { start: `${month}-01`, end: `${month}-${String(days).padStart(2, '0')}`, days, firstWeekday };
}

function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

function dayColor(day: AdherenceReport['days'][number] | undefined): string | undefined {
  if (!day || day.adherence === null) return undefined;
  if (day.adherence >= 90) return 'var(--mantine-color-teal-light)';
  if (day.adherence >= 70) return 'var(--mantine-color-yellow-light)';
  return 'var(--mantine-color-red-light)';
}

/**
 * The adherence calendar of /patient/{id}: a month of the patient's calendar, each day coloured by its
 * adherence with one dot per dose in the colour of its state, the month's figures, and the doses of the
 * chosen day. Live: a dose a device reports appears without a reload.
 */
export function AdherencePanel({
  patientId,
  programId,
  timeZone,
}: {
  patientId: number;
  programId: number;
  timeZone: string | null;
}) {
  const { t, i18n } = useTranslation('adherence');
  const zone = resolveDisplayZone(timeZone);
  const today = todayIn(zone);
  const [month, setMonth] = useState(today.slice(0, 7));
  const [selected, setSelected] = useState<string | null>(today);
  const bounds = monthBounds(month);
  const query = useAdherence(programId, patientId, bounds.start, bounds.end);
  useLivePatientData(patientId);
  const report = query.data;

  const dosesByDate = useMemo(() => {
    const map = new Map<string, ClassifiedDoseView[]>();
    for (const d of report?.doses ?? []) map.set(d.date, [...(map.get(d.date) ?? []), d]);
    return map;
  }, [report]);
  const daysByDate = useMemo(() => new Map((report?.days ?? []).map((d) => [d.date, d])), [report]);
  const regimenNames = useMemo(
    () => new Map((report?.regimens ?? []).map((r) => [r.regimen_id, r.name])),
    [report],
  );

  const locale = i18n.language === 'en' ? 'en-US' : i18n.language;
  const monthLabel = new Intl.DateTimeFormat(locale, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${month}-01T00:00:00Z`));
  const dateLabel = (date: string) =>
    new Intl.DateTimeFormat(locale, {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      timeZone: 'UTC',
    }).format(new Date(`${date}T00:00:00Z`));
  const timeLabel = (iso: string) =>
    new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: zone }).format(
      new Date(iso),
    );
  const localDateOf = (iso: string) => todayIn(zone, new Date(iso));
  // Weeks start on Sunday in US English, on Monday elsewhere.
  const weekStart = i18n.language === 'en' ? 0 : 1;
  const weekdays = Array.from({ length: 7 }, (_, i) =>
    new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2026, 1, 1 + weekStart + i)), // 1 February 2026 is a Sunday
    ),
  );
  const percent = (v: number | null) => (v === null ? t('summary.none') : `${v.toFixed(2)} %`);
  const extraOn = (date: string) => (report?.extra ?? []).filter((e) => localDateOf(e.at) === date);

  const cells: (string | null)[] = [
    ...Array.from({ length: (bounds.firstWeekday - weekStart + 7) % 7 }, () => null),
    ...Array.from({ length: bounds.days }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`),
  ];

  function dayLabel(date: string): string {
    const day = daysByDate.get(date);
    const summary = !day
      ? t('day.noDoses')
      : day.adherence === null
        ? t('day.pendingOnly')
        : t('day.percent', { value: day.adherence.toFixed(0) });
    return t('day.label', { date: dateLabel(date), summary });
  }

  const selectedDoses = selected ? (dosesByDate.get(selected) ?? []) : [];
  const selectedExtra = selected ? extraOn(selected) : [];

  return (
    <Stack gap="md" data-testid="adherence-panel">
      <Group justify="space-between" wrap="wrap">
        <Group gap="xs">
          <ActionIcon
            variant="subtle"
            aria-label={t('previousMonth')}
            onClick={() => setMonth(shiftMonth(month, -1))}
          >
            <IconChevronLeft size={18} />
          </ActionIcon>
          <Title order={3} size="h4" miw={170} ta="center" aria-live="polite">
            {monthLabel}
          </Title>
          <ActionIcon
            variant="subtle"
            aria-label={t('nextMonth')}
            onClick={() => setMonth(shiftMonth(month, 1))}
          >
            <IconChevronRight size={18} />
          </ActionIcon>
          {month !== today.slice(0, 7) && (
            <Button variant="subtle" size="xs" onClick={() => setMonth(today.slice(0, 7))}>
              {t('thisMonth')}
            </Button>
          )}
          {query.isFetching && <Loader size="xs" aria-label={t('loading')} />}
        </Group>
        <Text size="xs" c="dimmed">
          {t('zone', { zone })}
        </Text>
      </Group>

      {query.isError && !report ? (
        <Alert color="red" title={t('loadError')}>
          <Button size="xs" variant="light" onClick={() => void query.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : !report ? (
        <Group justify="center" py="xl">
          <Loader aria-label={t('loading')} />
        </Group>
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm">
            <Figure
              label={t('summary.adherence')}
              value={percent(report.total.adherence)}
              testId="figure-adherence"
            />
            <Figure
              label={t('summary.compliance')}
              value={percent(report.total.compliance)}
              testId="figure-compliance"
            />
            <Figure label={t('summary.due')} value={String(report.total.due)} testId="figure-due" />
            <Figure label={t('summary.missed')} value={String(report.total.missed)} testId="figure-missed" />
            <Figure label={t('summary.extra')} value={String(report.extra.length)} testId="figure-extra" />
          </SimpleGrid>
          {report.doses.length === 0 && (
            <Text c="dimmed" size="sm">
              {t('empty')}
            </Text>
          )}
          <section aria-label={monthLabel} data-testid="adherence-calendar">
            <div aria-hidden style={{ display: 'grid', gridTemplateColumns: 'repeat(7, 1fr)', gap: 4 }}>
              {weekdays.map((w) => (
                <Text key={w} size="xs" c="dimmed" ta="center">
                  {w}
                </Text>
              ))}
            </div>
            <div style={{ display: 'grid', gridTemplateColumns: 'repeat(7, 1fr)', gap: 4, marginTop: 4 }}>
              {cells.map((date, i) =>
                date === null ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: leading blanks of the month have no identity.
                  <div key={`blank-${i}`} aria-hidden />
                ) : (
                  <UnstyledButton
                    key={date}
                    aria-label={dayLabel(date)}
                    aria-pressed={selected === date}
                    data-date={date}
                    onClick={() => setSelected(date)}
                    style={{
                      minHeight: 56,
                      padding: 4,
                      borderRadius: 6,
                      border:
                        selected === date
                          ? '2px solid var(--mantine-color-blue-filled)'
                          : date === today
                            ? '1px solid var(--mantine-color-blue-outline)'
                            : '1px solid var(--mantine-color-default-border)',
                      background: dayColor(daysByDate.get(date)),
                    }}
                  >
                    <Text size="xs" fw={date === today ? 700 : 400}>
                      {Number(date.slice(8))}
                    </Text>
                    <Group gap={3} mt={2} wrap="wrap">
                      {(dosesByDate.get(date) ?? []).map((d) => (
                        <span
                          key={`${d.regimen_id}-${d.time}`}
                          data-state={d.state}
                          style={{
                            width: 8,
                            height: 8,
                            borderRadius: 4,
                            background:
                              d.state === 'pending'
                                ? 'transparent'
                                : `var(--mantine-color-${STATE_COLORS[d.state]}-filled)`,
                            border: `1px solid var(--mantine-color-${STATE_COLORS[d.state]}-filled)`,
                          }}
                        />
                      ))}
                    </Group>
                  </UnstyledButton>
                ),
              )}
            </div>
          </section>
          <Group gap="xs" aria-hidden>
            {STATES.map((s) => (
              <StateBadge key={s} state={s} size="sm">
                {t(`states.${s}`)}
              </StateBadge>
            ))}
          </Group>
          <Paper withBorder p="sm" radius="md">
            {!selected ? (
              <Text size="sm" c="dimmed">
                {t('day.choose')}
              </Text>
            ) : (
              <Stack gap="xs">
                <Title order={4} size="h5">
                  {t('day.heading', { date: dateLabel(selected) })}
                </Title>
                {selectedDoses.length === 0 && selectedExtra.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    {t('day.nothing')}
                  </Text>
                ) : (
                  <Table data-testid="day-doses">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('day.time')}</Table.Th>
                        <Table.Th>{t('day.regimen')}</Table.Th>
                        <Table.Th>{t('day.state')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {selectedDoses.map((d) => (
                        <Table.Tr key={`${d.regimen_id}-${d.time}`}>
                          <Table.Td>{timeLabel(d.scheduled_at)}</Table.Td>
                          <Table.Td>{regimenNames.get(d.regimen_id) ?? `#${d.regimen_id}`}</Table.Td>
                          <Table.Td>
                            <Group gap="xs">
                              <StateBadge state={d.state}>{t(`states.${d.state}`)}</StateBadge>
                              {d.taken_at && (
                                <Text size="xs" c="dimmed">
                                  {t('day.takenAt', { time: timeLabel(d.taken_at) })}
                                </Text>
                              )}
                            </Group>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                      {selectedExtra.map((e) => (
                        <Table.Tr key={`extra-${e.id}`}>
                          <Table.Td>{timeLabel(e.at)}</Table.Td>
                          <Table.Td>{regimenNames.get(e.regimen_id) ?? `#${e.regimen_id}`}</Table.Td>
                          <Table.Td>
                            <Tooltip label={t('day.extra', { time: timeLabel(e.at) })}>
                              <Badge color="grape" variant="light" style={TEXT_ON_TINT}>
                                {t('summary.extra')}
                              </Badge>
                            </Tooltip>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                )}
              </Stack>
            )}
          </Paper>
          <Text size="xs" c="dimmed">
            {t('live')}
          </Text>
        </>
      )}
    </Stack>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Paper withBorder p="xs" radius="md">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" data-testid={testId}>
        {value}
      </Text>
    </Paper>
  );
}
