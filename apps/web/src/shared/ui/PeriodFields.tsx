import { SegmentedControl, TextInput } from '@mantine/core';
import { CALENDAR_DATE, type usePeriodParams } from './period';

type Period = ReturnType<typeof usePeriodParams>;

/** The period's first and last day as date inputs; a date typed half-way is ignored until it is whole. */
export function DateRangeFields({
  period,
  fromLabel,
  toLabel,
}: {
  period: Period;
  fromLabel: string;
  toLabel: string;
}) {
  const { start, end, setPeriod } = period;
  return (
    <>
      <TextInput
        type="date"
        label={fromLabel}
        value={start}
        max={end}
        onChange={(e) =>
          CALENDAR_DATE.test(e.currentTarget.value) && setPeriod({ start: e.currentTarget.value, end })
        }
      />
      <TextInput
        type="date"
        label={toLabel}
        value={end}
        min={start}
        onChange={(e) =>
          CALENDAR_DATE.test(e.currentTarget.value) && setPeriod({ start, end: e.currentTarget.value })
        }
      />
    </>
  );
}

/** "Last N days" presets; none is selected when the period is not one of them. */
export function PeriodPresets({
  period,
  presets,
  label,
  presetLabel,
}: {
  period: Period;
  presets: readonly string[];
  label: string;
  presetLabel: (days: string) => string;
}) {
  return (
    <SegmentedControl
      aria-label={label}
      value={presets.find((p) => Number(p) === period.preset) ?? ''}
      onChange={(value) => period.lastDays(Number(value))}
      data={presets.map((p) => ({ value: p, label: presetLabel(p) }))}
    />
  );
}
