import { SegmentedControl } from '@mantine/core';
import { DateField } from './DateField';
import { CALENDAR_DATE, type usePeriodParams } from './period';

type Period = ReturnType<typeof usePeriodParams>;

/**
 * The period's first and last day as date fields in the language's one format (ADR 054), each saying the day in
 * words; a date that cannot be read is refused in the field and leaves the period as it was.
 */
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
      <DateField
        label={fromLabel}
        value={start}
        max={CALENDAR_DATE.test(end) ? end : undefined}
        onChange={(day) => CALENDAR_DATE.test(day) && setPeriod({ start: day, end })}
      />
      <DateField
        label={toLabel}
        value={end}
        min={CALENDAR_DATE.test(start) ? start : undefined}
        onChange={(day) => CALENDAR_DATE.test(day) && setPeriod({ start, end: day })}
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
