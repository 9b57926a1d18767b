import {
  devicesContract as c,
  type DeviceRegistered,
  type DeviceScheduleBody,
  type DeviceSecretReplaced,
  type DispenserDetail,
  deviceChannelContract,
} from '@caredeck/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/api-client';

const controller = { auth: 'controller' } as const;

/** Polling fallback of /controller: it is live through its socket (live.ts). */
const FLEET_POLL_MS = 30_000;

/**
 * A page of the dispenser fleet (connection, battery, last event), filtered on the server by part of the
 * serial and by connection: the fleet may hold any number of dispensers (issue 27).
 */
export function useFleet(filter: { page: number; serial: string; connectedOnly: boolean }) {
  return useQuery({
    queryKey: ['controller', 'fleet', filter],
    queryFn: ({ signal }) =>
      api.call(
        c.list,
        {
          query: {
            kind: 'dispenser',
            page: String(filter.page),
            ...(filter.serial ? { serial: filter.serial } : {}),
            ...(filter.connectedOnly ? { connected: 'true' } : {}),
          },
        },
        { ...controller, signal },
      ),
    placeholderData: keepPreviousData,
    refetchInterval: FLEET_POLL_MS,
  });
}

/** The gateway's counters (this API process), refreshed with the fleet. */
export function useGatewayStatus() {
  return useQuery({
    queryKey: ['controller', 'gateway'],
    queryFn: ({ signal }) => api.call(c.gateway, {}, { ...controller, signal }),
    refetchInterval: FLEET_POLL_MS,
  });
}

export function useDispenser(id: number | null) {
  return useQuery({
    queryKey: ['controller', 'dispenser', id],
    queryFn: ({ signal }) => api.call(c.dispenser, { params: { id: String(id) } }, { ...controller, signal }),
    enabled: id !== null,
    refetchInterval: FLEET_POLL_MS,
  });
}

export type CommandInput = {
  dispenser: DispenserDetail;
  data: string | { command: string; arg?: string | null };
};

/** Sends a command; the answer is the device's reply, or an error saying it did not answer in time. */
export function useSendCommand() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ dispenser, data }: CommandInput) =>
      api.call(
        c.message,
        {
          params: { id: String(dispenser.id) },
          body: { dispenserType: dispenser.dispenser_type as 1 | 2, data },
        },
        controller,
      ),
    onSettled: (_result, _error, { dispenser }) =>
      client.invalidateQueries({ queryKey: ['controller', 'dispenser', dispenser.id] }),
  });
}

/** The devices of one patient (staff: the patient's program). */
export function usePatientDevices(patientId: number) {
  return useQuery({
    queryKey: ['patient', patientId, 'devices'],
    queryFn: ({ signal }) => api.call(c.list, { query: { patient_id: String(patientId) } }, { signal }),
    refetchInterval: 30_000,
  });
}

export function useStaffDispenser(id: number | null) {
  return useQuery({
    queryKey: ['dispenser', id],
    queryFn: ({ signal }) => api.call(c.dispenser, { params: { id: String(id) } }, { signal }),
    enabled: id !== null,
  });
}

export function useFollowDispenser(dispenser: { id: number; dispenser_type: number | null }) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (on: boolean) =>
      api.call(on ? c.subscribe : c.unsubscribe, {
        params: { id: String(dispenser.id) },
        body: { dispenserType: dispenser.dispenser_type as 1 | 2 },
      }),
    onSuccess: (result) =>
      client.setQueryData(['dispenser', dispenser.id], (old: DispenserDetail | undefined) =>
        old ? { ...old, subscribed: result.subscribed } : old,
      ),
  });
}

export function usePatientSchedules(patientId: number) {
  return useQuery({
    queryKey: ['patient', patientId, 'schedules'],
    queryFn: ({ signal }) =>
      api.call(deviceChannelContract.patientSchedules, { params: { id: String(patientId) } }, { signal }),
  });
}

export function useCreateSchedule(patientId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DeviceScheduleBody) =>
      api.call(deviceChannelContract.createPatientSchedule, { params: { id: String(patientId) }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['patient', patientId, 'schedules'] }),
  });
}

/** The vendors CareDeck speaks with (to claim a vendor's device by its id). */
export function useIntegrations(enabled = true) {
  return useQuery({
    queryKey: ['devices', 'integrations'],
    queryFn: ({ signal }) => api.call(c.integrations, {}, { signal }),
    enabled,
    staleTime: 5 * 60_000,
  });
}

/** What the Add device dialog registers: a Medesto dispenser, a vendor's device, or a smart inhaler. */
export type Registration =
  | { kind: 'dispenser'; serial: string; dispenserType: 1 | 2 }
  | { kind: 'vendor'; vendor: string; deviceId: string }
  | { kind: 'inhaler'; serial: string; verified: boolean };

/**
 * Registers a device for the patient in the program; the answer carries the device's MQTT secret, shown
 * once (only its hash is kept). The patient's device list is refreshed.
 */
export function useRegisterDevice(programId: number, patientId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (r: Registration): Promise<DeviceRegistered> => {
      const owner = { program_id: programId, patient_id: patientId };
      if (r.kind === 'dispenser')
        return api.call(c.medesto, { body: { serial: r.serial, dispenser_type: r.dispenserType, ...owner } });
      if (r.kind === 'inhaler')
        return api.call(c.createInhaler, { body: { serial: r.serial, verified: r.verified, ...owner } });
      return api.call(c.provision, {
        params: { vendor: r.vendor },
        body: { device_id: r.deviceId, ...owner },
      });
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['patient', patientId, 'devices'] });
      void client.invalidateQueries({ queryKey: ['devices', 'integrations'] });
    },
  });
}

/**
 * Gives a device a new secret (ADR 051): the old one stops working and the device's connections are closed.
 * The answer carries the new secret, shown once. Staff call it for devices of their program, /controller
 * (`realm: 'controller'`) for the fleet; the lists showing the device are refreshed.
 */
export function useReplaceSecret(realm: 'staff' | 'controller' = 'staff') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number): Promise<DeviceSecretReplaced> =>
      api.call(
        c.replaceSecret,
        { params: { id: String(id) } },
        realm === 'controller' ? controller : undefined,
      ),
    onSuccess: ({ data }) => {
      if (data.patient) void client.invalidateQueries({ queryKey: ['patient', data.patient.id, 'devices'] });
      void client.invalidateQueries({ queryKey: ['dispenser', data.id] });
      if (realm === 'controller') void client.invalidateQueries({ queryKey: ['controller'] });
    },
  });
}
