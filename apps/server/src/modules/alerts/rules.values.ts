import {
  type Comparison,
  classifyAdherence,
  compareValue,
  type DoseEvent,
  groupBy,
  resolveDisplayZone,
} from '@caredeck/domain';
import type { Queryable } from '../../platform/db/client';
import { toSchedule } from '../adherence/adherence.service';
import { DAY, lastDays } from '../adherence/calendar-range';
import { doseEventsOfPatients, schedulesOfPatients } from '../adherence/kpi.queries';
import { patientsWithRegimens } from './alerts.queries';
import { daysWithoutReading, type RuleRow, readingValues, type ValueRow } from './rules.queries';

const CHUNK = 500;

/** Adherence (percent, two decimals) of the program's patients with regimens over the last `days` days. */
async function adherenceValues(
  db: Queryable,
  programId: number,
  days: number,
  now: number,
): Promise<ValueRow[]> {
  const out: ValueRow[] = [];
  for (let after = 0; ; ) {
    const patients = await patientsWithRegimens(db, [programId], after, CHUNK);
    if (patients.length === 0) break;
    after = patients[patients.length - 1]!.id;
    const ids = patients.map((p) => p.id);
    const from = new Date(now - (days + 3) * DAY);
    const [schedules, events] = await Promise.all([
      schedulesOfPatients(db, ids, from, new Date(now + DAY)),
      doseEventsOfPatients(db, ids, new Date(from.getTime() - 2 * DAY), new Date(now + DAY)),
    ]);
    const schedulesOf = groupBy(schedules, (s) => s.patient_id);
    const eventsOf = groupBy(events, (e) => e.patient_id);
    for (const p of patients) {
      const zone = resolveDisplayZone(p.time_zone);
      const range = lastDays(zone, now, days);
      const result = classifyAdherence({
        regimens: (schedulesOf.get(p.id) ?? []).map(toSchedule),
        events: (eventsOf.get(p.id) ?? []).map(
          (e): DoseEvent => ({
            id: e.id,
            regimenId: e.regimen_id,
            at: new Date(e.at).getTime(),
            kind: e.kind,
          }),
        ),
        zone,
        from: range.from,
        to: range.to,
        now,
      });
      if (result.total.adherence !== null)
        out.push({ patient_id: p.id, value: result.total.adherence, at: new Date(range.from).toISOString() });
    }
  }
  return out;
}

/** The rule's observable for every patient of its program that has a value now. */
export async function ruleValues(
  db: Queryable,
  rule: Pick<RuleRow, 'program_id' | 'observable' | 'criterion'>,
  now: number,
): Promise<ValueRow[]> {
  const c = rule.criterion;
  if (rule.observable === 'adherence')
    return adherenceValues(db, rule.program_id, Math.max(1, Math.ceil(c.window_minutes / 1440)), now);
  if (rule.observable === 'days_without_reading') return daysWithoutReading(db, rule.program_id);
  return readingValues(db, rule.program_id, rule.observable, c.aggregation, c.window_minutes);
}

export function ruleHolds(rule: Pick<RuleRow, 'criterion'>, value: number): boolean {
  return compareValue(value, rule.criterion.comparison as Comparison, rule.criterion.value);
}
