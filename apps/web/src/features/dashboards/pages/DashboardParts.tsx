import { Paper, Skeleton, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import '../i18n';

/** A figure of a dashboard, with a skeleton while it loads. */
export function FactTile({ label, value, id }: { label: string; value: number | undefined; id: string }) {
  const { i18n } = useTranslation();
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {value === undefined ? (
        <Skeleton height={28} mt={4} width={60} />
      ) : (
        <Text fw={700} fz={28} lh={1.2} data-testid={`dashboard-${id}`}>
          {new Intl.NumberFormat(i18n.language).format(value)}
        </Text>
      )}
    </Paper>
  );
}

/** A fact per day as bars, with its total in the title. */
export function FactChart({
  title,
  data,
  color,
}: {
  title: string;
  data: { date: string; value: number }[] | undefined;
  color: string;
}) {
  const { t, i18n } = useTranslation('dashboards');
  const W = 560;
  const H = 120;
  const days = data ?? [];
  const max = Math.max(1, ...days.map((d) => d.value));
  const slot = days.length > 0 ? W / days.length : W;
  const label = (date: string) =>
    new Intl.DateTimeFormat(i18n.language === 'en' ? 'en-US' : i18n.language, {
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(`${date}T00:00:00Z`));
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} fz="h5" mb="sm">
        {title}
      </Title>
      {!data ? (
        <Skeleton height={H} />
      ) : (
        <svg viewBox={`0 0 ${W} ${H + 18}`} width="100%" role="img" aria-label={title}>
          {days.map((d, i) => {
            const h = (d.value / max) * H;
            return (
              <rect
                key={d.date}
                x={i * slot + 1}
                y={H - h}
                width={Math.max(1, slot - 2)}
                height={h}
                fill={`var(--mantine-color-${color}-filled)`}
              >
                <title>{t('bar', { date: label(d.date), value: d.value })}</title>
              </rect>
            );
          })}
          {days.length > 0 && (
            <>
              <text x={0} y={H + 14} fontSize="11" fill="var(--mantine-color-dimmed)">
                {label(days[0]!.date)}
              </text>
              <text x={W} y={H + 14} fontSize="11" textAnchor="end" fill="var(--mantine-color-dimmed)">
                {label(days.at(-1)!.date)}
              </text>
            </>
          )}
        </svg>
      )}
    </Paper>
  );
}
