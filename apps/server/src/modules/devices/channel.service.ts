import {
  CARE_ROLES,
  DEVICE_MESSAGES,
  type DeviceScheduleBody,
  NFC_MESSAGES,
  SCHEDULE_MESSAGES,
  type StaffRole,
} from '@caredeck/contracts';
import { programAccess } from '../../platform/access/access.queries';
import type { DeviceActor, StaffActor } from '../../platform/access/actor';
import { audit } from '../../platform/audit/audit';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import {
  dispensersOfPatients,
  goalStatus,
  groupPatientIds,
  insertGoal,
  insertSchedules,
  podByBarcode,
  regimenOfPatient,
  type ScheduleRow,
  scheduleStatuses,
  schedulesOfGroup,
  schedulesOfPatient,
  setRegimenDevice,
  supersedePendingSchedules,
} from './channel.queries';
import { deviceById } from './devices.queries';
import { deviceView } from './devices.service';
import type { DeviceGateway } from './gateway/gateway';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const scheduleView = (s: ScheduleRow) => ({
  ...s,
  sent_at: iso(s.sent_at),
  created_at: new Date(s.created_at).toISOString(),
});

/**
 * What staff program into devices (dose schedules, goals, the regimen a device runs) and what devices
 * report over HTTPS (the NFC channel). Programming is stored first (a device's older pending schedule, or
 * pending goal of the same type, is superseded by it), then the gateway sends it to the devices that can
 * receive it now; the others get it when they next connect (ADR 050). The regimen a device runs is kept
 * here only (its doses count for it): nothing is sent to the device for it.
 */
export function createChannelService(deps: { db: Database; gateway: DeviceGateway }) {
  const { db, gateway } = deps;

  async function careRoleOn(actor: StaffActor, programId: number | null) {
    if (programId === null) throw AppError.notFound();
    const program = await programAccess(db, actor.adminId, programId);
    if (!program || program.roles.length === 0) throw AppError.notFound();
    if (!program.roles.some((r: StaffRole) => (CARE_ROLES as readonly StaffRole[]).includes(r)))
      throw AppError.forbidden();
  }

  async function schedule(
    actor: StaffActor,
    patientIds: number[],
    groupId: number | null,
    input: DeviceScheduleBody,
    noDevice: string,
  ) {
    const dispensers = await dispensersOfPatients(db, patientIds);
    if (dispensers.length === 0) throw AppError.validation({ device: [noDevice] });
    if (input.regimen_id) {
      if (patientIds.length !== 1 || !(await regimenOfPatient(db, input.regimen_id, patientIds[0]!)))
        throw AppError.validation({ regimen_id: [DEVICE_MESSAGES.patientOutsideProgram] });
    }
    const times = [...input.times].sort();
    const weekdays = [...(input.weekdays ?? [0, 1, 2, 3, 4, 5, 6])].sort();
    const created = await db.transaction(async (tx) => {
      await supersedePendingSchedules(
        tx,
        dispensers.map((d) => d.id),
      );
      const rows = await insertSchedules(
        tx,
        dispensers.map((d) => ({
          patientId: d.patient_id,
          programId: d.program_id,
          deviceId: d.id,
          groupId,
          regimenId: input.regimen_id ?? null,
          times,
          weekdays,
          adminId: actor.adminId,
        })),
      );
      await audit(tx, {
        actorAdminId: actor.adminId,
        programId: actor.program?.id ?? null,
        action: 'device.schedule.created',
        subjectType: groupId === null ? 'patient' : 'group',
        subjectId: groupId ?? patientIds[0]!,
        details: { devices: rows.length, times: times.length },
        ip: actor.ip,
      });
      return rows;
    });
    await gateway.deliverProgramming(created.map((r) => r.device_id));
    // As stored now: sent here, or by the gateway that saw the device connect meanwhile, or still pending.
    const now = await scheduleStatuses(
      db,
      created.map((r) => r.id),
    );
    return {
      message: SCHEDULE_MESSAGES.created,
      data: created.map((r) => scheduleView({ ...r, ...now.get(r.id) })),
    };
  }

  return {
    createForPatient: (actor: StaffActor, input: { patientId: number } & DeviceScheduleBody) =>
      schedule(actor, [input.patientId], null, input, SCHEDULE_MESSAGES.noDispenser),

    async createForGroup(actor: StaffActor, input: { groupId: number } & DeviceScheduleBody) {
      const patients = await groupPatientIds(db, input.groupId);
      return schedule(actor, patients, input.groupId, input, SCHEDULE_MESSAGES.noPatients);
    },

    async ofPatient(_actor: StaffActor, input: { patientId: number }) {
      return { data: (await schedulesOfPatient(db, input.patientId)).map(scheduleView) };
    },

    async ofGroup(_actor: StaffActor, input: { groupId: number }) {
      return { data: (await schedulesOfGroup(db, input.groupId)).map(scheduleView) };
    },

    /** NFC channel: the pod a device scanned, only within the device's own program. */
    async nfcProgram(actor: DeviceActor, input: { barcode: string }) {
      const pod = await podByBarcode(db, input.barcode);
      if (!pod || pod.program_id !== actor.programId) throw AppError.notFound(NFC_MESSAGES.unknownBarcode);
      return {
        program: { id: pod.program_id, name: pod.program_name },
        pod: {
          id: pod.id,
          barcode: pod.barcode,
          regimen_id: pod.regimen_id,
          regimen_name: pod.regimen_name,
          servings_remaining: pod.servings_remaining,
        },
      };
    },

    /**
     * NFC channel: a pod activity, stored through the ingestor like any device event (a dispense becomes a
     * dose of the pod's regimen); idempotent by `seq` (default: the activity's time in milliseconds).
     */
    async nfcActivity(
      actor: DeviceActor,
      input: {
        barcode: string;
        activity_type: string;
        error_stage?: string | null;
        at?: string;
        seq?: number;
      },
    ) {
      const pod = await podByBarcode(db, input.barcode);
      if (!pod || pod.program_id !== actor.programId) throw AppError.notFound(NFC_MESSAGES.unknownBarcode);
      const at = input.at && !Number.isNaN(Date.parse(input.at)) ? Date.parse(input.at) : Date.now();
      if (at > Date.now() + 5 * 60_000) throw AppError.validation({ at: ['The time is in the future.'] });
      const type = {
        scan: 'pod_scanned',
        dispense: 'dose_taken',
        insert: 'pod_inserted',
        remove: 'pod_removed',
        error: 'device_error',
      }[input.activity_type]!;
      await gateway.ingestor.submitAsync({
        deviceId: actor.deviceId,
        seq: input.seq ?? at,
        type,
        at,
        payload: { barcode: pod.barcode, ...(input.error_stage ? { error_stage: input.error_stage } : {}) },
      });
      return { message: NFC_MESSAGES.recorded, stored: true };
    },

    async goal(actor: StaffActor, input: { device_id: number; type: string; target: number }) {
      const device = await deviceById(db, input.device_id);
      if (!device) throw AppError.notFound();
      await careRoleOn(actor, device.program_id);
      const goal = await db.transaction(async (tx) => {
        const created = await insertGoal(tx, {
          deviceId: device.id,
          type: input.type,
          target: input.target,
          adminId: actor.adminId,
        });
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId: device.program_id,
          action: 'device.goal.set',
          subjectType: 'device',
          subjectId: device.id,
          details: { type: input.type },
          ip: actor.ip,
        });
        return created;
      });
      await gateway.deliverProgramming([device.id]);
      const now = await goalStatus(db, goal.id);
      return {
        message: 'Goal set',
        data: { ...goal, target: Number(goal.target), status: now.status, sent_at: iso(now.sent_at) },
      };
    },

    /** The regimen a device runs (its doses without a pod barcode count for it). */
    async deviceRegimen(actor: StaffActor, input: { device_id: number; regiment_id: number }) {
      const device = await deviceById(db, input.device_id);
      if (!device) throw AppError.notFound();
      await careRoleOn(actor, device.program_id);
      if (!device.patient || !(await regimenOfPatient(db, input.regiment_id, device.patient.id)))
        throw AppError.validation({ regiment_id: ["The regimen is not one of the device's patient."] });
      await db.transaction(async (tx) => {
        await setRegimenDevice(tx, input.regiment_id, device.serial);
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId: device.program_id,
          action: 'device.regimen.set',
          subjectType: 'device',
          subjectId: device.id,
          details: { regimen_id: input.regiment_id },
          ip: actor.ip,
        });
      });
      return { message: 'Regimen set', data: deviceView((await deviceById(db, device.id))!, actor) };
    },
  };
}

export type ChannelService = ReturnType<typeof createChannelService>;
