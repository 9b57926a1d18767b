import { Readable } from 'node:stream';
import {
  type AuditAction,
  EXTERNAL_ORDER_ROLES,
  EXTERNAL_ORDER_STATUS_LABELS,
  EXTERNAL_ORDER_STATUSES,
  type ExternalOrder,
  type ExternalOrderStatus,
  EXTERNAL_ORDER_MESSAGES as M,
  pageOf,
} from '@caredeck/contracts';
import type { StaffActor } from '../../platform/access/actor';
import { requireProgramRole } from '../../platform/access/program-role';
import { audit, auditView } from '../../platform/audit/audit';
import type { Database, Queryable } from '../../platform/db/client';
import { isUniqueViolation } from '../../platform/db/errors';
import { type FileStorage, newKey } from '../../platform/files/storage';
import { AppError } from '../../platform/http/errors';
import {
  insertOrders as insertMedicationOrders,
  insertPods,
  insertRegimen,
  nextPodCodes,
  updateRegimen,
} from '../medications/medications.queries';
import { isRealDay, readOrdersCsv } from './external-orders.csv';
import { addDays, equipmentCsv, fillFilesOf } from './external-orders.fill';
import { storeImport } from './external-orders.import';
import {
  activeRegimensByDrug,
  externalPatientById,
  hasFinalizedOrders,
  historyOf,
  insertEquipmentFile,
  linkExternalPatient,
  listOrders,
  markFillVerified,
  markFinalized,
  markMatched,
  markScheduleVerified,
  matchCandidates,
  orderIdsOfExternalPatient,
  ordersByIds,
  ordersOfPatientDate,
  patientOfProgram,
  setTimes,
  statusCounts,
  trackingOf,
  verifiers,
} from './external-orders.queries';

const OPEN: readonly ExternalOrderStatus[] = ['matched', 'fill_verified', 'schedule_verified', 'verified'];
const DONE: readonly ExternalOrderStatus[] = ['finalized', 'shipped', 'delivered'];
const flag = (v: string | undefined) => v === '1' || v === 'true';
const today = () => new Date().toISOString().slice(0, 10);

function checkDay(field: string, value: string): string {
  if (!isRealDay(value)) throw AppError.validation({ [field]: ['Use a date like 2026-12-01.'] });
  return value;
}

export function createExternalOrdersService(deps: { db: Database; storage: FileStorage }) {
  const { db, storage } = deps;

  /** The patient (of the program) and their open orders needed by the day; 404 when there are none. */
  async function patientDay(tx: Queryable, programId: number, patientId: number, day: string, lock = false) {
    checkDay('needByDate', day);
    const patient = await patientOfProgram(tx, patientId, programId);
    if (!patient) throw AppError.notFound(M.patientNotFound);
    const orders = await ordersOfPatientDate(tx, programId, patientId, day, lock);
    if (orders.length === 0) throw AppError.notFound(M.noOrders);
    return { patient, orders };
  }

  async function fillFiles(tx: Queryable, programId: number, patientId: number, day: string) {
    const { patient, orders } = await patientDay(tx, programId, patientId, day);
    const who = await verifiers(
      tx,
      orders.map((o) => o.id),
    );
    return fillFilesOf(patient, day, orders, { at: who.fill_at, by: who.fill_by });
  }

  async function regimensReview(tx: Queryable, programId: number, patientId: number, day: string) {
    const { patient, orders } = await patientDay(tx, programId, patientId, day);
    const ids = orders.map((o) => o.id);
    const [who, existing] = await Promise.all([
      verifiers(tx, ids),
      activeRegimensByDrug(
        tx,
        patientId,
        orders.map((o) => o.drug_name),
      ),
    ]);
    const verified = orders.every((o) => o.schedule_verified_at !== null);
    return {
      patient,
      need_by_date: day,
      regimens: orders.map((o) => ({
        order_id: o.id,
        order_number: o.order_number,
        name: [o.drug_name, o.strength].filter(Boolean).join(' '),
        sig: o.sig,
        times_per_day: o.times_per_day,
        per_dose: o.per_dose,
        times: o.times,
        start_date: day,
        end_date: addDays(day, o.days_supply - 1),
        status: o.status,
        updates_regimen_id: o.regimen_id ?? existing.get(o.drug_name.toLowerCase()) ?? null,
      })),
      verified,
      verified_at: verified ? who.schedule_at : null,
      verified_by: verified ? who.schedule_by : null,
    };
  }

  /** Orders still open for review; 409 when every one of them is already finalized. */
  function openOrders(orders: ExternalOrder[]) {
    const open = orders.filter((o) => OPEN.includes(o.status));
    if (open.length === 0)
      throw AppError.conflict(
        orders.some((o) => o.status === 'received') ? M.notMatched : M.alreadyFinalized,
      );
    return open;
  }

  function auditEntry(
    actor: StaffActor,
    programId: number,
    action: AuditAction,
    subject: number | null,
    details?: object,
  ) {
    return {
      actorAdminId: actor.adminId,
      programId,
      action,
      subjectType: subject === null ? undefined : 'patient',
      subjectId: subject ?? undefined,
      details: details as Record<string, unknown> | undefined,
      ip: actor.ip,
    };
  }

  return {
    async statuses(actor: StaffActor, programId: number) {
      const id = await requireProgramRole(db, actor.adminId, programId, EXTERNAL_ORDER_ROLES);
      const counts = await statusCounts(db, id);
      return {
        data: EXTERNAL_ORDER_STATUSES.map((status, i) => ({
          status,
          label: EXTERNAL_ORDER_STATUS_LABELS[status],
          order: i + 1,
          orders: counts.find((c) => c.status === status)?.orders ?? 0,
        })),
      };
    },

    async history(orderId: number) {
      return { data: await historyOf(db, orderId) };
    },

    async list(
      actor: StaffActor,
      q: {
        program_id: number;
        page: number;
        per_page: number;
        date?: string;
        statuses?: string;
        only_automation?: string;
        verified_only?: string;
        search: string;
        searchDrug: string;
        user_id?: number;
      },
    ) {
      const programId = await requireProgramRole(db, actor.adminId, q.program_id, EXTERNAL_ORDER_ROLES);
      if (q.date) checkDay('date', q.date);
      const statuses = (q.statuses ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = statuses.filter((s) => !(EXTERNAL_ORDER_STATUSES as readonly string[]).includes(s));
      if (unknown.length > 0)
        throw AppError.validation({ statuses: [`Unknown status: ${unknown.join(', ')}.`] });
      const { rows, total } = await listOrders(
        db,
        {
          programId,
          date: q.date,
          statuses: statuses as ExternalOrderStatus[],
          onlyAutomation: flag(q.only_automation),
          verifiedOnly: flag(q.verified_only),
          search: q.search,
          searchDrug: q.searchDrug,
          patientId: q.user_id,
        },
        { page: q.page, perPage: q.per_page },
      );
      await auditView(db, auditEntry(actor, programId, 'external_orders.view', null, { rows: rows.length }));
      return pageOf(rows, q, total);
    },

    async tracking(orderId: number) {
      const [row, events] = await Promise.all([trackingOf(db, orderId), historyOf(db, orderId, true)]);
      if (!row) throw AppError.notFound(M.notFound);
      return { ...row, events };
    },

    async fillFiles(actor: StaffActor, programId: number, patientId: number, day: string) {
      const data = await fillFiles(db, programId, patientId, day);
      await auditView(db, auditEntry(actor, programId, 'external_orders.fill_files_view', patientId));
      return data;
    },

    async verifyFillFiles(actor: StaffActor, programId: number, patientId: number, day: string) {
      const data = await db.transaction(async (tx) => {
        const { orders } = await patientDay(tx, programId, patientId, day, true);
        const open = openOrders(orders);
        await markFillVerified(tx, { programId, ids: open.map((o) => o.id), adminId: actor.adminId });
        await audit(
          tx,
          auditEntry(actor, programId, 'external_orders.fill_verify', patientId, {
            need_by_date: day,
            orders: open.map((o) => o.id),
          }),
        );
        return fillFiles(tx, programId, patientId, day);
      });
      return { message: M.fillVerified, data };
    },

    async regimens(actor: StaffActor, programId: number, patientId: number, day: string) {
      const data = await regimensReview(db, programId, patientId, day);
      await auditView(db, auditEntry(actor, programId, 'external_orders.regimens_view', patientId));
      return data;
    },

    async verifyRegimens(
      actor: StaffActor,
      programId: number,
      patientId: number,
      day: string,
      body: { regimens: { order_id: number; times: string[] }[] },
    ) {
      return db.transaction(async (tx) => {
        const { orders } = await patientDay(tx, programId, patientId, day, true);
        const open = openOrders(orders);
        const errors: Record<string, string[]> = {};
        let podsChanged = false;
        const changes: { id: number; times: string[] }[] = [];
        body.regimens.forEach((r, i) => {
          const order = open.find((o) => o.id === r.order_id);
          if (!order) {
            errors[`regimens.${i}.order_id`] = ['This order is not open for review on this date.'];
            return;
          }
          const times = [...r.times].sort();
          if (times.length !== order.times_per_day) errors[`regimens.${i}.times`] = [M.timesCount];
          else if (new Set(times).size !== times.length)
            errors[`regimens.${i}.times`] = ['Each time may appear once.'];
          else if (times.join() !== order.times.join()) {
            changes.push({ id: order.id, times });
            if (order.automation) podsChanged = true;
          }
        });
        if (Object.keys(errors).length > 0) throw AppError.validation(errors);
        for (const c of changes) await setTimes(tx, c.id, c.times);
        const reset = podsChanged && open.some((o) => o.fill_verified_at !== null);
        await markScheduleVerified(tx, {
          programId,
          ids: open.map((o) => o.id),
          adminId: actor.adminId,
          resetFill: reset,
          note: changes.length > 0 ? 'Dose times corrected' : null,
        });
        await audit(
          tx,
          auditEntry(actor, programId, 'external_orders.schedule_verify', patientId, {
            need_by_date: day,
            orders: open.map((o) => o.id),
            corrected: changes.map((c) => c.id),
          }),
        );
        return {
          message: M.scheduleVerified,
          fill_files_reset: reset,
          data: await regimensReview(tx, programId, patientId, day),
        };
      });
    },

    async matches(externalId: number) {
      const [external, candidates] = await Promise.all([
        externalPatientById(db, externalId),
        matchCandidates(db, externalId),
      ]);
      if (!external) throw AppError.notFound(M.patientNotFound);
      return { external_patient: external, data: candidates };
    },

    async merge(actor: StaffActor, programId: number, externalId: number, patientId: number) {
      return db.transaction(async (tx) => {
        const external = await externalPatientById(tx, externalId);
        const patient = await patientOfProgram(tx, patientId, programId);
        if (!external || !patient) throw AppError.notFound(M.patientNotFound);
        const relink = external.patient !== null && external.patient.id !== patientId;
        if (relink && (await hasFinalizedOrders(tx, externalId))) throw AppError.conflict(M.linkedElsewhere);
        await linkExternalPatient(tx, externalId, patientId, actor.adminId);
        const ids = await orderIdsOfExternalPatient(tx, externalId);
        const moved =
          external.patient?.id === patientId
            ? []
            : await markMatched(tx, {
                programId,
                ids,
                adminId: actor.adminId,
                note: 'Matched to a patient by staff',
              });
        await audit(
          tx,
          auditEntry(actor, programId, 'external_orders.merge', patientId, {
            external_patient_id: externalId,
            previous_patient_id: external.patient?.id ?? null,
            orders: moved.length,
          }),
        );
        return {
          message: M.merged,
          external_patient: (await externalPatientById(tx, externalId))!,
          orders: moved.length,
        };
      });
    },

    /** POST external_orders/import: all or nothing (ADR 045). */
    async importCsv(actor: StaffActor, programIdInput: number, csv: string, fileName: string) {
      const programId = await requireProgramRole(db, actor.adminId, programIdInput, EXTERNAL_ORDER_ROLES);
      const { rows, errors } = readOrdersCsv(csv, today());
      if (Object.keys(errors).length > 0) throw AppError.validation(errors, M.fileHasErrors);
      try {
        return await db.transaction(async (tx) => {
          const counts = await storeImport(tx, { programId, adminId: actor.adminId, rows, fileName });
          await audit(
            tx,
            auditEntry(actor, programId, 'external_orders.import', null, { rows: rows.length, ...counts }),
          );
          return { message: M.imported, ...counts };
        });
      } catch (err) {
        if (isUniqueViolation(err))
          throw AppError.conflict(
            'Another import of these orders ran at the same time: import the file again.',
          );
        throw err;
      }
    },

    /**
     * PUT external_orders/finalize: verified orders only (409 otherwise). In one transaction: per order a
     * medication order and a regimen (or the update of the active regimen a previous fill of the same drug
     * created), a pod for the automation orders, and per patient and need-by date the equipment file.
     */
    async finalize(actor: StaffActor, body: { program_id: number; external_order_ids: number[] }) {
      const programId = await requireProgramRole(db, actor.adminId, body.program_id, EXTERNAL_ORDER_ROLES);
      const wanted = [...new Set(body.external_order_ids)];
      const written: string[] = [];
      try {
        return await db.transaction(async (tx) => {
          const orders = await ordersByIds(tx, programId, wanted, true);
          if (orders.length !== wanted.length) throw AppError.notFound(M.notFound);
          if (orders.some((o) => DONE.includes(o.status))) throw AppError.conflict(M.alreadyFinalized);
          const pending = orders.filter((o) => o.status !== 'verified');
          if (pending.length > 0)
            throw AppError.conflict(`${M.notVerified} (${pending.map((o) => o.order_number).join(', ')})`);
          const groups = new Map<string, typeof orders>();
          for (const o of orders) {
            const key = `${o.patient_id}|${o.need_by_date}`;
            groups.set(key, [...(groups.get(key) ?? []), o]);
          }
          const regimenIds: number[] = [];
          const files: { name: string; rows: number; orders: number }[] = [];
          for (const group of groups.values()) {
            const first = group[0]!;
            const patientId = first.patient_id!;
            const day = first.need_by_date;
            const existing = await activeRegimensByDrug(
              tx,
              patientId,
              group.map((o) => o.drug_name),
            );
            const barcodes = new Map<number, string>();
            const regimenOf = new Map<number, number>();
            for (const o of group) {
              const name = [o.drug_name, o.strength].filter(Boolean).join(' ');
              const end = `${addDays(day, o.days_supply)}T00:00:00.000Z`;
              let regimenId = existing.get(o.drug_name.toLowerCase()) ?? null;
              if (regimenId) {
                await updateRegimen(tx, regimenId, { time: o.times, num: o.per_dose, end_at: end });
              } else {
                const [medicationOrder] = await insertMedicationOrders(
                  tx,
                  { patientId, programId, adminId: actor.adminId, regimenId: null },
                  [
                    {
                      drug_name: o.drug_name,
                      strength: o.strength,
                      quantity: Math.min(o.quantity, 10_000),
                      instructions: o.sig,
                    },
                  ],
                );
                regimenId = await insertRegimen(tx, {
                  name,
                  repeat: 'daily',
                  interval: 1,
                  timeCascade: false,
                  billable: true,
                  lockout_time: 0,
                  time: o.times,
                  num: o.per_dose,
                  created_by: 'External order',
                  scheduled_at: `${day}T00:00:00.000Z`,
                  end_at: end,
                  multi_pod: false,
                  unlock_before: 0,
                  parent_id: null,
                  type: 'medication',
                  device_serial: null,
                  patientId,
                  programId,
                  orderId: medicationOrder ?? null,
                  adminId: actor.adminId,
                });
              }
              regimenOf.set(o.id, regimenId);
              regimenIds.push(regimenId);
              if (o.automation) {
                const codes = await nextPodCodes(tx, 'EXT', 1, true);
                await insertPods(tx, {
                  regimenId,
                  patientId,
                  programId,
                  prefix: 'EXT',
                  original: o.quantity,
                  remaining: o.quantity,
                  linkedRegimenId: null,
                  codes,
                });
                barcodes.set(o.id, codes[0]!);
              }
            }
            const { csv, rows } = equipmentCsv({
              patient: {
                first_name: first.external_patient.first_name,
                last_name: first.external_patient.last_name,
                dob: first.external_patient.dob,
                pharmacy_patient_id: first.external_patient.pharmacy_patient_id,
              },
              needByDate: day,
              orders: group,
              barcodes,
            });
            const key = newKey('external-orders');
            const bytes = Buffer.from(csv, 'utf8');
            await storage.put(key, Readable.from([bytes]));
            written.push(key);
            const fileName = `pod_fill_${patientId}_${day}.csv`;
            const fileId = await insertEquipmentFile(tx, {
              programId,
              patientId,
              needByDate: day,
              key,
              fileName,
              size: bytes.length,
              rows,
              adminId: actor.adminId,
            });
            files.push({ name: fileName, rows, orders: group.length });
            for (const o of group)
              await markFinalized(tx, {
                programId,
                ids: [o.id],
                adminId: actor.adminId,
                regimenId: regimenOf.get(o.id)!,
                fileId,
                note: `Equipment file ${fileName}`,
              });
            await audit(
              tx,
              auditEntry(actor, programId, 'external_orders.finalize', patientId, {
                need_by_date: day,
                orders: group.map((o) => o.id),
                regimens: group.map((o) => regimenOf.get(o.id)),
                file_id: fileId,
              }),
            );
          }
          return {
            message: M.finalized,
            regimen_ids: [...new Set(regimenIds)],
            equipment_files: files,
            data: (await ordersByIds(tx, programId, wanted)).map(({ patient_id: _p, ...o }) => o),
          };
        });
      } catch (err) {
        await Promise.all(written.map((key) => storage.remove(key).catch(() => undefined)));
        throw err;
      }
    },
  };
}

export type ExternalOrdersService = ReturnType<typeof createExternalOrdersService>;
