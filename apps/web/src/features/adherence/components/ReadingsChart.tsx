import type { CHART_BUCKET_SECONDS } from '@caredeck/contracts';
import { formatDate, US_DATE_TIME_PATTERN } from '@caredeck/domain';
import { Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { shortDayLabel } from '../../../shared/ui/period';
import '../i18n';

/** A reading, or a bucket of a downsampled series: `v` is then the mean, `min`/`max`/`count` its spread. */
export type ChartPoint = { t: number; v: number; min?: number; max?: number; count?: number };

type ChartBucketSeconds = (typeof CHART_BUCKET_SECONDS)[number];
const widthKey = (seconds: number) => `s${seconds as ChartBucketSeconds}` as const;

const W = 480;
const H = 180;
const PAD = { left: 40, right: 8, top: 8, bottom: 20 };

/**
 * A small SVG line chart of one reading type with its normal range as a band. A downsampled series
 * (`bucketSeconds` set, issue 27) is drawn as its mean line inside a min–max band and labelled with the
 * bucket width; each point's tooltip gives min, mean and max.
 */
export function ReadingsChart({
  title,
  points,
  unit,
  range,
  from,
  to,
  bucketSeconds,
  zone,
}: {
  title: string;
  points: ChartPoint[];
  unit: string;
  range?: [number, number];
  from: number;
  to: number;
  bucketSeconds: number | null;
  zone: string;
}) {
  const { t, i18n } = useTranslation('adherence');
  const values = points.flatMap((p) => [p.min ?? p.v, p.max ?? p.v]).concat(range ?? []);
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  const margin = (hi - lo) * 0.1 || Math.max(1, Math.abs(hi) * 0.05);
  lo -= margin;
  hi += margin;
  const x = (time: number) =>
    PAD.left + ((time - from) / Math.max(1, to - from)) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - (v - lo) / (hi - lo)) * (H - PAD.top - PAD.bottom);
  const xy = (time: number, v: number) => `${x(time).toFixed(1)},${y(v).toFixed(1)}`;
  const downsampled = bucketSeconds !== null;
  // A bucket is drawn at its middle, so the last bucket of the range sits inside the range.
  const mid = (p: ChartPoint) => (downsampled ? p.t + (bucketSeconds * 1000) / 2 : p.t);
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${xy(mid(p), p.v)}`).join(' ');
  const band = downsampled
    ? `M${points.map((p) => xy(mid(p), p.max ?? p.v)).join(' L')} L${points
        .toReversed()
        .map((p) => xy(mid(p), p.min ?? p.v))
        .join(' L')} Z`
    : null;
  const latest = points.at(-1);
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const dateTick = (time: number) => shortDayLabel(time, i18n.language);
  const when = (time: number) => formatDate(time, US_DATE_TIME_PATTERN, zone);
  const tip = (p: ChartPoint) =>
    p.count === undefined
      ? t('readings.point', { time: when(p.t), value: number.format(p.v), unit })
      : t('readings.bucketPoint', {
          time: when(p.t),
          mean: number.format(p.v),
          min: number.format(p.min ?? p.v),
          max: number.format(p.max ?? p.v),
          unit,
          count: p.count,
        });
  const summary = [
    latest ? t('readings.latest', { value: number.format(latest.v), unit }) : '',
    range ? t('readings.normal', { low: number.format(range[0]), high: number.format(range[1]), unit }) : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const bucketLabel = downsampled
    ? t('readings.downsampled', { width: t(`readings.bucketWidths.${widthKey(bucketSeconds)}`) })
    : null;
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text fw={600} size="sm">
          {title}
        </Text>
        <Text size="xs" c="dimmed">
          {summary}
        </Text>
      </Group>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width="100%"
        role="img"
        aria-label={[`${title}: ${summary}`, bucketLabel].filter(Boolean).join('. ')}
      >
        {range && (
          <rect
            x={PAD.left}
            width={W - PAD.left - PAD.right}
            y={y(range[1])}
            height={Math.max(0, y(range[0]) - y(range[1]))}
            fill="var(--mantine-color-teal-light)"
          />
        )}
        {[lo + margin, (lo + hi) / 2, hi - margin].map((v) => (
          <g key={v}>
            <line
              x1={PAD.left}
              x2={W - PAD.right}
              y1={y(v)}
              y2={y(v)}
              stroke="var(--mantine-color-default-border)"
            />
            <text
              x={PAD.left - 4}
              y={y(v) + 4}
              fontSize="10"
              textAnchor="end"
              fill="var(--mantine-color-dimmed)"
            >
              {number.format(v)}
            </text>
          </g>
        ))}
        {[from, (from + to) / 2, to].map((time, i) => (
          <text
            key={time}
            x={x(time)}
            y={H - 4}
            fontSize="10"
            textAnchor={i === 0 ? 'start' : i === 2 ? 'end' : 'middle'}
            fill="var(--mantine-color-dimmed)"
          >
            {dateTick(time)}
          </text>
        ))}
        {band && (
          <path d={band} data-testid="min-max-band" fill="var(--mantine-color-blue-light)" stroke="none" />
        )}
        <path
          d={path}
          data-testid={downsampled ? 'mean-line' : 'reading-line'}
          fill="none"
          stroke="var(--mantine-color-blue-filled)"
          strokeWidth={downsampled ? 1.5 : 2}
        />
        {points.map((p) => {
          const outside = range && (p.v < range[0] || p.v > range[1]);
          return (
            <circle
              key={p.t}
              cx={x(mid(p))}
              cy={y(p.v)}
              r={downsampled ? 1.5 : outside ? 3.5 : 2.5}
              fill={outside ? 'var(--mantine-color-red-filled)' : 'var(--mantine-color-blue-filled)'}
            >
              <title>{tip(p)}</title>
            </circle>
          );
        })}
      </svg>
      {bucketLabel && (
        <Text size="xs" c="dimmed" data-testid="bucket-width">
          {bucketLabel}
        </Text>
      )}
    </Stack>
  );
}
