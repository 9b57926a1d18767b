import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { shortDayLabel } from '../../../shared/ui/period';

export type BarSeries = { key: string; label: string; color: string };

/**
 * A small stacked bar chart of daily values (SVG, no chart library): one bar per day, one colour per
 * series, a title per bar for the exact figures, the first and last dates under it.
 */
export function Bars({
  days,
  series,
  label,
  unit = '',
}: {
  days: ({ date: string } & Record<string, number | string>)[];
  series: BarSeries[];
  label: string;
  unit?: string;
}) {
  const { i18n } = useTranslation();
  const W = 720;
  const H = 150;
  const totals = days.map((d) => series.reduce((n, s) => n + Number(d[s.key] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const barW = W / Math.max(1, days.length);
  const locale = i18n.language === 'en' ? 'en-US' : i18n.language;
  const dateLabel = (date: string) => shortDayLabel(date, i18n.language);
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  return (
    <div>
      <svg viewBox={`0 0 ${W} ${H + 18}`} width="100%" role="img" aria-label={label}>
        {days.map((d, i) => {
          let y = H;
          return (
            <g key={d.date}>
              <title>
                {`${dateLabel(d.date)}: ${series.map((s) => `${s.label} ${number.format(Number(d[s.key] ?? 0))}${unit}`).join(', ')}`}
              </title>
              {series.map((s) => {
                const h = (Number(d[s.key] ?? 0) / max) * H;
                y -= h;
                return (
                  <rect
                    key={s.key}
                    x={i * barW + 1}
                    y={y}
                    width={Math.max(1, barW - 2)}
                    height={h}
                    fill={`var(--mantine-color-${s.color}-filled)`}
                  />
                );
              })}
            </g>
          );
        })}
        {days.length > 0 && (
          <>
            <text x={0} y={H + 14} fontSize="11" fill="var(--mantine-color-dimmed)">
              {dateLabel(days[0]!.date)}
            </text>
            <text x={W} y={H + 14} fontSize="11" textAnchor="end" fill="var(--mantine-color-dimmed)">
              {dateLabel(days.at(-1)!.date)}
            </text>
          </>
        )}
      </svg>
      {series.length > 1 && (
        <Group gap="md" mt={4} aria-hidden>
          {series.map((s) => (
            <Group key={s.key} gap={4}>
              <span
                style={{
                  width: 10,
                  height: 10,
                  borderRadius: 2,
                  background: `var(--mantine-color-${s.color}-filled)`,
                }}
              />
              <Text size="xs">{s.label}</Text>
            </Group>
          ))}
        </Group>
      )}
    </div>
  );
}
