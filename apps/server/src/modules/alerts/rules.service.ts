import {
  ALERT_TYPES,
  RULE_AGGREGATIONS,
  RULE_COMPARISONS,
  RULE_EDITOR_ROLES,
  RULE_MESSAGES,
  RULE_OBSERVABLES,
  RULE_OUTCOMES,
  type Rule,
  STAFF_ROLES,
} from '@caredeck/contracts';
import { programAccess } from '../../platform/access/access.queries';
import type { StaffActor } from '../../platform/access/actor';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { visiblePrograms } from '../tenancy/tenancy.queries';
import {
  deleteRule,
  insertRule,
  patientNames,
  type RuleDefinition,
  type RuleRow,
  rulesOf,
  updateRule,
} from './rules.queries';
import { ruleHolds, ruleValues } from './rules.values';

/** Who writes a program's rules and thresholds. */

type Body = {
  name: string;
  observable: string;
  criterion: RuleDefinition['criterion'];
  outcome: RuleDefinition['outcome'];
  active: boolean;
};

const view = (r: RuleRow): Rule =>
  ({
    ...r,
    // Rules saved before texting existed have no sms_text.
    outcome: { ...r.outcome, sms_text: r.outcome.sms_text ?? null },
    updated_at: new Date(r.updated_at).toISOString(),
  }) as Rule;

/** A definition that reads well: adherence and absence take no aggregation; adherence needs whole days. */
function definition(body: Body): RuleDefinition {
  const kind = RULE_OBSERVABLES.find((o) => o.key === body.observable)!.kind;
  if (kind !== 'reading' && body.criterion.aggregation !== 'latest')
    throw AppError.validation({ 'criterion.aggregation': [RULE_MESSAGES.aggregationNotForObservable] });
  if (kind === 'adherence' && body.criterion.window_minutes < 1440)
    throw AppError.validation({ 'criterion.window_minutes': [RULE_MESSAGES.windowRequired] });
  return {
    name: body.name,
    observable: body.observable,
    criterion: body.criterion,
    outcome: body.outcome,
    active: body.active,
  };
}

/** 02 §7 "Rules": catalogues, the program's rules, their versions and a dry run. */
export function createRulesService(deps: { db: Database; now?: () => number }) {
  const { db } = deps;
  const now = deps.now ?? Date.now;

  /** The body's program: one the actor sees (else 404), where they may edit rules (else 403). */
  async function editableProgram(actor: StaffActor, programId: number) {
    const access = await programAccess(db, actor.adminId, programId);
    if (!access) throw AppError.notFound('Program not found');
    if (!access.roles.some((r) => (RULE_EDITOR_ROLES as readonly string[]).includes(r)))
      throw AppError.forbidden();
  }

  return {
    observables: () => ({ data: RULE_OBSERVABLES.map((o) => ({ ...o })) }),
    criterion: () => ({ data: { comparisons: [...RULE_COMPARISONS], aggregations: [...RULE_AGGREGATIONS] } }),
    outcomes: () => ({
      data: RULE_OUTCOMES.map((type) => ({ type, alert_types: [...ALERT_TYPES], roles: [...STAFF_ROLES] })),
    }),

    async list(actor: StaffActor, query: { rule_ids?: number[]; program_id?: number }) {
      const visible = (await visiblePrograms(db, actor.adminId)).map((p) => p.id);
      if (query.program_id !== undefined && !visible.includes(query.program_id))
        throw AppError.notFound('Program not found');
      const rows = await rulesOf(
        db,
        query.program_id !== undefined ? [query.program_id] : visible,
        query.rule_ids ?? null,
      );
      return { data: rows.map(view) };
    },

    async create(actor: StaffActor, body: Body & { program_id: number }) {
      await editableProgram(actor, body.program_id);
      const id = await db.transaction((tx) =>
        insertRule(tx, body.program_id, definition(body), actor.adminId),
      );
      const [row] = await rulesOf(db, [body.program_id], [id]);
      return { message: RULE_MESSAGES.created, data: view(row!) };
    },

    /** A new version of the rule; without `active` it keeps its current state. */
    async update(actor: StaffActor, id: number, body: Omit<Body, 'active'> & { active?: boolean }) {
      const programId = actor.program!.id;
      await db.transaction(async (tx) => {
        const active = body.active ?? (await rulesOf(tx, [programId], [id]))[0]?.active ?? false;
        await updateRule(tx, id, definition({ ...body, active }), actor.adminId);
      });
      const [row] = await rulesOf(db, [programId], [id]);
      return { message: RULE_MESSAGES.updated, data: view(row!) };
    },

    async remove(_actor: StaffActor, id: number) {
      await deleteRule(db, id);
      return { message: RULE_MESSAGES.deleted };
    },

    /** The patients the rule would hit now (its program must be one the actor sees). */
    async dryRun(actor: StaffActor, body: Body & { program_id: number }) {
      const access = await programAccess(db, actor.adminId, body.program_id);
      if (!access) throw AppError.notFound('Program not found');
      const rule = { program_id: body.program_id, ...definition(body) };
      const values = await ruleValues(db, rule, now());
      const hits = values.filter((v) => ruleHolds(rule, v.value));
      const descending = rule.criterion.comparison !== '<' && rule.criterion.comparison !== '<=';
      hits.sort(
        (a, b) => (descending ? b.value - a.value : a.value - b.value) || a.patient_id - b.patient_id,
      );
      const shown = hits.slice(0, 100);
      const names = new Map(
        (
          await patientNames(
            db,
            shown.map((h) => h.patient_id),
          )
        ).map((p) => [p.id, p]),
      );
      return {
        data: {
          total: hits.length,
          evaluated: values.length,
          hits: shown.map((h) => ({
            patient: names.get(h.patient_id)!,
            value: h.value,
            at: h.at === null ? null : new Date(h.at).toISOString(),
          })),
        },
      };
    },
  };
}

export type RulesService = ReturnType<typeof createRulesService>;
