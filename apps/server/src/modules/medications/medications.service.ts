import {
  type AuditAction,
  type CreateRegimenInput,
  MEDICATION_MESSAGES,
  type Regimen,
  smallestGapMinutes,
} from '@caredeck/contracts';
import type { StaffActor } from '../../platform/access/actor';
import { audit, auditView } from '../../platform/audit/audit';
import type { Database, Queryable } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { findPatientInProgram, staffOutsideProgram } from '../patients/record.queries';
import { type Label, labelSheet } from './labels';
import {
  changeDiseaseState,
  completeRegimen,
  deleteUsage,
  deviceBusy,
  deviceOfSerial,
  diseaseStatesOf,
  insertDiseaseState,
  insertOrders,
  insertPods,
  insertRegimen,
  insertUsage,
  lockDeviceSerial,
  nextPodCodes,
  orderOfPatient,
  ordersOf,
  podsForLabels,
  recentUsages,
  regimenById,
  regimenSchedule,
  regimensOf,
  regimensOfPatient,
  scriptOfPatient,
  scriptsOf,
  takeServings,
  updateRegimen,
  upsertScript,
  usageById,
} from './medications.queries';

type OrderInput = {
  drug_name: string;
  strength?: string | null;
  route?: string | null;
  form?: string | null;
  quantity?: number | null;
  refills?: number | null;
  instructions?: string | null;
  prescriber_id?: number | null;
};
type PodInput = { prefix: string; original_servings: number; servings_remaining: number; num: number };

function programOf(actor: StaffActor) {
  if (!actor.program) throw new Error('a medication use case needs the program the access hook resolved');
  return actor.program;
}

export function createMedicationsService(deps: { db: Database }) {
  const { db } = deps;

  /** The patient must be one of the actor's program: else 404, like any object outside the scope. */
  async function patientIn(tx: Queryable, actor: StaffActor, patientId: number) {
    const program = programOf(actor);
    if (!(await findPatientInProgram(tx, patientId, program.id))) throw AppError.notFound();
    return program;
  }

  function auditPatient(
    tx: Queryable,
    actor: StaffActor,
    action: AuditAction,
    patientId: number,
    details?: object,
  ) {
    return audit(tx, {
      actorAdminId: actor.adminId,
      programId: actor.program?.id ?? null,
      action,
      subjectType: 'patient',
      subjectId: patientId,
      details: details as Record<string, unknown> | undefined,
      ip: actor.ip,
    });
  }

  async function regimenOrNotFound(tx: Queryable, id: number): Promise<Regimen> {
    const regimen = await regimenById(tx, id);
    if (!regimen) throw AppError.notFound(MEDICATION_MESSAGES.regimenNotFound);
    return regimen;
  }

  /**
   * A serial named by a regimen, when the fleet has it: a device of the patient's program, not given to another
   * patient, of the kind the regimen drives. A serial not registered yet is taken (the device may come later).
   * Locked until the transaction ends, so the busy check that follows holds.
   */
  async function checkDevice(
    tx: Queryable,
    input: { serial: string; type: string; patientId: number; programId: number },
  ) {
    await lockDeviceSerial(tx, input.serial);
    const device = await deviceOfSerial(tx, input.serial);
    if (!device) return;
    const refuse = (message: string) => AppError.validation({ device_serial: [message] });
    if (
      (device.program_id !== null && device.program_id !== input.programId) ||
      (device.patient_id !== null && device.patient_id !== input.patientId)
    )
      throw refuse(MEDICATION_MESSAGES.deviceElsewhere);
    if (input.type === 'inhaler' && device.kind !== 'inhaler') throw refuse(MEDICATION_MESSAGES.notAnInhaler);
    if (input.type === 'medesto-device' && device.kind !== 'dispenser')
      throw refuse(MEDICATION_MESSAGES.notADispenser);
  }

  async function createRegimens(
    tx: Queryable,
    actor: StaffActor,
    patientId: number,
    orderId: number | null,
    inputs: CreateRegimenInput[],
  ): Promise<Regimen[]> {
    const program = programOf(actor);
    const parents = inputs.map((r) => r.parent_id).filter((id): id is number => typeof id === 'number');
    if ((await regimensOfPatient(tx, patientId, parents)).length !== new Set(parents).size)
      throw AppError.notFound();
    const created: Regimen[] = [];
    for (const input of inputs) {
      if (input.device_serial) {
        await checkDevice(tx, {
          serial: input.device_serial,
          type: input.type,
          patientId,
          programId: program.id,
        });
        // A device order runs one regimen at a time on its device: the caller decides what to do (02 §8).
        if (input.type === 'medesto-device' && (await deviceBusy(tx, input.device_serial)))
          throw AppError.conflict(MEDICATION_MESSAGES.deviceBusy);
      }
      const id = await insertRegimen(tx, {
        ...input,
        patientId,
        programId: program.id,
        orderId,
        adminId: actor.adminId,
      });
      created.push(await regimenOrNotFound(tx, id));
    }
    await auditPatient(tx, actor, 'patient.regimen_create', patientId, {
      regimens: created.map((r) => r.id),
    });
    return created;
  }

  return {
    /** Everything of the patient's medication in one answer (the medication tab); a PHI view. */
    async plan(actor: StaffActor, input: { patientId: number }) {
      const program = await patientIn(db, actor, input.patientId);
      const [regimens, orders, scripts, disease_states, recent_usages] = await Promise.all([
        regimensOf(db, input.patientId),
        ordersOf(db, input.patientId),
        scriptsOf(db, input.patientId),
        diseaseStatesOf(db, input.patientId),
        recentUsages(db, input.patientId),
        auditView(db, {
          actorAdminId: actor.adminId,
          programId: program.id,
          action: 'patient.medication_view',
          subjectType: 'patient',
          subjectId: input.patientId,
          ip: actor.ip,
        }),
      ]);
      return { regimens, orders, scripts, disease_states, recent_usages };
    },

    async createOrders(
      actor: StaffActor,
      input: { patientId: number; regimenId?: number; orders: OrderInput[] },
    ) {
      return db.transaction(async (tx) => {
        const program = await patientIn(tx, actor, input.patientId);
        if (input.regimenId && (await regimensOfPatient(tx, input.patientId, [input.regimenId])).length === 0)
          throw AppError.notFound(MEDICATION_MESSAGES.regimenNotFound);
        const prescribers = input.orders
          .map((o) => o.prescriber_id)
          .filter((id): id is number => typeof id === 'number');
        if ((await staffOutsideProgram(tx, program.id, prescribers)).length > 0)
          throw AppError.validation({ prescriber_id: ['Choose a prescriber of this program.'] });
        const ids = await insertOrders(
          tx,
          {
            patientId: input.patientId,
            programId: program.id,
            adminId: actor.adminId,
            regimenId: input.regimenId ?? null,
          },
          input.orders,
        );
        await auditPatient(tx, actor, 'patient.order_create', input.patientId, { orders: ids });
        return (await ordersOf(tx, input.patientId, ids)).reverse();
      });
    },

    async orders(actor: StaffActor, input: { patientId: number }) {
      await patientIn(db, actor, input.patientId);
      return { data: await ordersOf(db, input.patientId) };
    },

    async createRegimens(
      actor: StaffActor,
      input: { patientId: number; orderId: number; regimens: CreateRegimenInput[] },
    ) {
      return db.transaction(async (tx) => {
        await patientIn(tx, actor, input.patientId);
        if (!(await orderOfPatient(tx, input.patientId, input.orderId))) throw AppError.notFound();
        return createRegimens(tx, actor, input.patientId, input.orderId, input.regimens);
      });
    },

    /** A smart inhaler regimen: no order, the inhaler's serial names the device. */
    async createInhalerRegimen(
      actor: StaffActor,
      input: { patientId: number; regimen: Omit<CreateRegimenInput, 'type'> },
    ) {
      return db.transaction(async (tx) => {
        await patientIn(tx, actor, input.patientId);
        const [created] = await createRegimens(tx, actor, input.patientId, null, [
          { ...input.regimen, type: 'inhaler' },
        ]);
        return created!;
      });
    },

    async regimens(actor: StaffActor, input: { patientId: number; regimenId?: number }) {
      await patientIn(db, actor, input.patientId);
      const regimens = await regimensOf(db, input.patientId, input.regimenId);
      if (input.regimenId && regimens.length === 0)
        throw AppError.notFound(MEDICATION_MESSAGES.regimenNotFound);
      return regimens;
    },

    async completeRegimen(actor: StaffActor, input: { patientId: number; regimenId: number }) {
      return db.transaction(async (tx) => {
        await patientIn(tx, actor, input.patientId);
        if (!(await completeRegimen(tx, input.patientId, input.regimenId)))
          throw AppError.notFound(MEDICATION_MESSAGES.regimenNotFound);
        await auditPatient(tx, actor, 'patient.regimen_complete', input.patientId, {
          regimen_id: input.regimenId,
        });
        return regimenOrNotFound(tx, input.regimenId);
      });
    },

    /** Changes a regimen (the object rule resolved its program); the whole schedule is checked again. */
    async updateRegimen(actor: StaffActor, input: { regimenId: number; changes: Record<string, unknown> }) {
      return db.transaction(async (tx) => {
        const current = await regimenSchedule(tx, input.regimenId);
        if (!current) throw AppError.notFound(MEDICATION_MESSAGES.regimenNotFound);
        const next = { ...current, ...input.changes } as typeof current;
        const errors: Record<string, string[]> = {};
        if (next.end_at && Date.parse(next.end_at) <= Date.parse(next.scheduled_at))
          errors.end_at = [MEDICATION_MESSAGES.endBeforeStart];
        const gap = smallestGapMinutes(next.time);
        if (gap !== null && next.lockout_time > gap)
          errors.lockout_time = [MEDICATION_MESSAGES.lockoutTooLong];
        if (next.repeat !== 'as_needed' && next.time.length === 0)
          errors.time = [MEDICATION_MESSAGES.timesRequired];
        if (Object.keys(errors).length > 0) throw AppError.validation(errors);
        const serial = input.changes.device_serial;
        if (typeof serial === 'string' && serial !== '')
          await checkDevice(tx, {
            serial,
            type: current.type,
            patientId: current.patient_id,
            programId: programOf(actor).id,
          });
        await updateRegimen(tx, input.regimenId, input.changes);
        const regimen = await regimenOrNotFound(tx, input.regimenId);
        await auditPatient(tx, actor, 'patient.regimen_update', regimen.patient_id, {
          regimen_id: input.regimenId,
          fields: Object.keys(input.changes),
        });
        return regimen;
      });
    },

    async setScripts(
      actor: StaffActor,
      input: {
        patientId: number;
        scripts: {
          id?: number;
          drug_name: string;
          sig?: string | null;
          quantity?: number | null;
          refills?: number | null;
          prescriber?: string | null;
          written_at?: string | null;
        }[];
      },
    ) {
      return db.transaction(async (tx) => {
        const program = await patientIn(tx, actor, input.patientId);
        for (const script of input.scripts)
          if (!(await upsertScript(tx, { ...script, patientId: input.patientId, programId: program.id })))
            throw AppError.notFound();
        await auditPatient(tx, actor, 'patient.scripts', input.patientId, { scripts: input.scripts.length });
        return { data: await scriptsOf(tx, input.patientId) };
      });
    },

    /** New pods for a regimen of the patient, each with a fresh barcode. */
    async createPods(
      actor: StaffActor,
      input: { patientId: number; regimenId: number; pods: PodInput; linkedRegimenId?: number },
    ) {
      return db.transaction(async (tx) => {
        const program = await patientIn(tx, actor, input.patientId);
        const wanted = [input.regimenId, ...(input.linkedRegimenId ? [input.linkedRegimenId] : [])];
        if ((await regimensOfPatient(tx, input.patientId, wanted)).length !== new Set(wanted).size)
          throw AppError.notFound(MEDICATION_MESSAGES.regimenNotFound);
        const codes = await nextPodCodes(tx, input.pods.prefix, input.pods.num, true);
        const pods = await insertPods(tx, {
          regimenId: input.regimenId,
          patientId: input.patientId,
          programId: program.id,
          prefix: input.pods.prefix,
          original: input.pods.original_servings,
          remaining: input.pods.servings_remaining,
          linkedRegimenId: input.linkedRegimenId ?? null,
          codes,
        });
        await auditPatient(tx, actor, 'patient.pods_create', input.patientId, {
          regimen_id: input.regimenId,
          pods: pods.length,
        });
        return pods;
      });
    },

    async podCodes(actor: StaffActor, input: { patientId: number; regimenId: number; pods: PodInput }) {
      await patientIn(db, actor, input.patientId);
      if ((await regimensOfPatient(db, input.patientId, [input.regimenId])).length === 0)
        throw AppError.notFound(MEDICATION_MESSAGES.regimenNotFound);
      return { codes: await nextPodCodes(db, input.pods.prefix, input.pods.num, false) };
    },

    /** Labels of the patient's pods (one or many barcodes); an unknown barcode answers 404. */
    async labels(
      actor: StaffActor,
      input: { patientId: number; barcodes: string[]; podId?: number; regimenId?: number },
    ) {
      await patientIn(db, actor, input.patientId);
      const wanted = [...new Set(input.barcodes.map((b) => b.trim()).filter(Boolean))].slice(0, 300);
      const pods = await podsForLabels(db, input.patientId, wanted);
      if (pods.length !== wanted.length || wanted.length === 0) throw AppError.notFound();
      if (input.podId && (pods[0]?.pod_id !== input.podId || pods[0]?.regimen_id !== input.regimenId))
        throw AppError.notFound();
      const labels: Label[] = pods.map((p) => ({
        barcode: p.barcode,
        title: p.regimen_name,
        detail: `#${p.num} · ${p.original_servings}`,
      }));
      const stream = await labelSheet(labels, 'Pod labels');
      return {
        stream,
        fileName: wanted.length === 1 ? `pod_${wanted[0]}.pdf` : `pods_${wanted.length}_labels.pdf`,
      };
    },

    async recordUsage(
      actor: StaffActor,
      input: {
        patientId: number;
        regimenId: number;
        podId?: number | null;
        takenAt: string;
        servings: number;
        note?: string | null;
      },
    ) {
      return db.transaction(async (tx) => {
        await patientIn(tx, actor, input.patientId);
        if ((await regimensOfPatient(tx, input.patientId, [input.regimenId])).length === 0)
          throw AppError.notFound(MEDICATION_MESSAGES.regimenNotFound);
        if (input.podId && !(await takeServings(tx, input.podId, input.regimenId, input.servings)))
          throw AppError.validation({
            pod_id: ['This pod is not of the regimen, or has too few servings left.'],
          });
        const id = await insertUsage(tx, {
          patientId: input.patientId,
          regimenId: input.regimenId,
          podId: input.podId ?? null,
          takenAt: input.takenAt,
          servings: input.servings,
          note: input.note ?? null,
          adminId: actor.adminId,
        });
        await auditPatient(tx, actor, 'patient.usage_record', input.patientId, {
          regimen_id: input.regimenId,
        });
        return usageById(tx, id);
      });
    },

    async deleteUsage(actor: StaffActor, input: { patientId: number; usageId: number }) {
      await db.transaction(async (tx) => {
        await patientIn(tx, actor, input.patientId);
        if (!(await deleteUsage(tx, input.patientId, input.usageId))) throw AppError.notFound();
        await auditPatient(tx, actor, 'patient.usage_delete', input.patientId, { usage_id: input.usageId });
      });
    },

    async addDiseaseState(
      actor: StaffActor,
      input: { patientId: number; conditions: unknown[]; regimenId?: number; scriptId?: number },
    ) {
      return db.transaction(async (tx) => {
        const program = await patientIn(tx, actor, input.patientId);
        if (input.regimenId && (await regimensOfPatient(tx, input.patientId, [input.regimenId])).length === 0)
          throw AppError.notFound(MEDICATION_MESSAGES.regimenNotFound);
        if (input.scriptId && !(await scriptOfPatient(tx, input.patientId, input.scriptId)))
          throw AppError.notFound();
        const id = await insertDiseaseState(tx, {
          patientId: input.patientId,
          programId: program.id,
          conditions: input.conditions,
          regimenIds: input.regimenId ? [input.regimenId] : [],
          scriptId: input.scriptId ?? null,
          adminId: actor.adminId,
        });
        await auditPatient(tx, actor, 'patient.disease_state_add', input.patientId, { disease_state_id: id });
        return (await diseaseStatesOf(tx, input.patientId, id))[0]!;
      });
    },

    async changeDiseaseState(
      actor: StaffActor,
      input: { patientId: number; id: number; regimenIds?: number[]; end?: true; delete?: true },
    ) {
      return db.transaction(async (tx) => {
        await patientIn(tx, actor, input.patientId);
        if (input.regimenIds) {
          const unique = [...new Set(input.regimenIds)];
          if ((await regimensOfPatient(tx, input.patientId, unique)).length !== unique.length)
            throw AppError.notFound(MEDICATION_MESSAGES.regimenNotFound);
        }
        if (!(await changeDiseaseState(tx, input.patientId, input.id, input))) throw AppError.notFound();
        const action = input.delete ? 'delete' : input.end ? 'end' : 'link_regimens';
        await auditPatient(tx, actor, `patient.disease_state_${action}`, input.patientId, {
          disease_state_id: input.id,
        });
        return input.delete ? null : (await diseaseStatesOf(tx, input.patientId, input.id))[0]!;
      });
    },
  };
}

export type MedicationsService = ReturnType<typeof createMedicationsService>;
