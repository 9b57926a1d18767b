import {
  type CreatePatientBody,
  type CreateRegimenBody,
  patientRecordContract as c,
  caregiversContract,
  catalogueContract,
  geographyContract,
  groupsContract,
  type InhalerRegimenBody,
  type MED_REC_KEYS,
  type MED_REC_METHODS,
  type MedRecBody,
  medicationsContract,
  medRecContract,
  type OrderBody,
  type PatientRecord,
  type PodBody,
  type ScriptBody,
  tenancyContract,
  type UpdatePatientBody,
  type UpdateRegimenBody,
  type UsageBody,
} from '@caredeck/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { api } from '../../shared/api-client';

/** Query keys of one patient: every change invalidates them all. */
export const patientKeys = {
  all: (id: number) => ['patient', id] as const,
  record: (programId: number, id: number) => ['patient', id, 'record', programId] as const,
  status: (id: number) => ['patient', id, 'status'] as const,
  history: (id: number, page: number) => ['patient', id, 'history', page] as const,
  caregivers: (id: number) => ['patient', id, 'caregivers'] as const,
  cohorts: (id: number) => ['patient', id, 'cohorts'] as const,
};

const str = (n: number) => String(n);

export function usePatient(programId: number, id: number) {
  return useQuery({
    queryKey: patientKeys.record(programId, id),
    queryFn: ({ signal }) =>
      api.call(c.get, { params: { programId: str(programId), id: str(id) } }, { signal }),
    retry: false,
  });
}

/** Records that the profile was opened (02 §7 Logs), once per visit. */
export function logProfileViewed(id: number) {
  return api.call(c.profileViewed, { params: { id: str(id) } });
}

/** After a change: the record answered by the server replaces the cached one; lists and history refetch. */
function usePatientChanged() {
  const client = useQueryClient();
  return (record: PatientRecord | null, id: number) => {
    if (record) client.setQueryData(patientKeys.record(record.program_id, record.id), record);
    void client.invalidateQueries({ queryKey: patientKeys.all(id) });
    void client.invalidateQueries({ queryKey: ['patients'] });
  };
}

export function useUpdatePatient(id: number) {
  const changed = usePatientChanged();
  return useMutation({
    mutationFn: (body: UpdatePatientBody) => api.call(c.update, { params: { id: str(id) }, body }),
    onSuccess: (record) => changed(record, id),
  });
}

export function useCreatePatient(programId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePatientBody) =>
      api.call(c.create, { params: { programId: str(programId) }, body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['patients'] }),
  });
}

export function useSetActive(id: number, programId: number) {
  const changed = usePatientChanged();
  return useMutation({
    mutationFn: (active: boolean) =>
      active
        ? api.call(c.activate, { params: { id: str(id) }, query: { program_id: str(programId) } })
        : api.call(c.deactivate, { params: { id: str(id) }, query: { program_id: str(programId) } }),
    onSuccess: (record) => changed(record, id),
  });
}

export function usePatientStatus(id: number) {
  return useQuery({
    queryKey: patientKeys.status(id),
    queryFn: ({ signal }) => api.call(c.status, { params: { id: str(id) } }, { signal }),
  });
}

/** `POST users/{id}/status`; a reason (optional, ADR 052) goes to the status history and the status log. */
export function useSetStatus(id: number) {
  const changed = usePatientChanged();
  return useMutation({
    mutationFn: (input: { value: PatientRecord['status']; reason?: string }) => {
      const reason = input.reason?.trim();
      return api.call(c.setStatus, {
        params: { id: str(id) },
        body: reason ? { value: input.value, reason } : { value: input.value },
      });
    },
    onSuccess: () => changed(null, id),
  });
}

export function useAuditHistory(programId: number, id: number, page: number) {
  return useQuery({
    queryKey: patientKeys.history(id, page),
    queryFn: ({ signal }) =>
      api.call(
        c.auditHistory,
        {
          params: { programId: str(programId), patientId: str(id) },
          query: { page: str(page), per_page: '10' },
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

export function useProgramStaff(programId: number, enabled = true) {
  return useQuery({
    enabled,
    queryKey: ['program', programId, 'admins'],
    queryFn: ({ signal }) =>
      api.call(
        tenancyContract.programAdmins,
        { params: { programId: str(programId) }, query: {} },
        { signal },
      ),
    staleTime: 60_000,
  });
}

export function useChangeProgram(id: number) {
  const changed = usePatientChanged();
  return useMutation({
    mutationFn: (body: { old_program_id: number; new_program_id: number }) =>
      api.call(c.changeProgram, { params: { id: str(id) }, body }),
    onSuccess: (record) => changed(record, id),
  });
}

export function useSetPrograms(id: number) {
  const changed = usePatientChanged();
  return useMutation({
    mutationFn: (programs: number[]) =>
      api.call(c.setPrograms, { params: { id: str(id) }, body: { programs } }),
    onSuccess: (record) => changed(record, id),
  });
}

export function useNotificationSettings(id: number) {
  const changed = usePatientChanged();
  return useMutation({
    mutationFn: (body: Partial<PatientRecord['notification_settings']>) =>
      api.call(c.notificationSettings, { params: { id: str(id) }, body }),
    onSuccess: () => changed(null, id),
  });
}

/** Cities of a US state for the address picker (shipped data, largest first, at most 250; 01 §8). */
export function useCities(state: string, search: string) {
  return useQuery({
    queryKey: ['geography', 'cities', state, search],
    queryFn: ({ signal }) =>
      api.call(
        geographyContract.cities,
        { params: { state }, query: { search: search || undefined } },
        { signal },
      ),
    enabled: /^[A-Z]{2}$/.test(state),
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });
}

/** The patient-app sign-in: type '2' sets a password, otherwise a code is e-mailed (02 §4). */
export function useAppPassword(id: number) {
  return useMutation({
    mutationFn: (body: { type: '2'; password: string; password_confirmation: string } | { type: '1' }) =>
      api.call(c.appPassword, { params: { id: str(id) }, body }),
  });
}

export function useDuplicates(programId: number, probe: Record<string, string> | null) {
  return useQuery({
    queryKey: ['patients', 'duplicates', programId, probe],
    queryFn: ({ signal }) =>
      api.call(
        c.checkExists,
        { params: { programId: str(programId), patientId: '0' }, query: probe ?? {} },
        { signal },
      ),
    enabled: probe !== null,
  });
}

export function usePatientCaregivers(programId: number, id: number) {
  return useQuery({
    queryKey: patientKeys.caregivers(id),
    queryFn: ({ signal }) =>
      api.call(
        caregiversContract.ofPatient,
        { params: { programId: str(programId), patientId: str(id) } },
        { signal },
      ),
  });
}

export function useProgramCaregivers(programId: number, search: string) {
  return useQuery({
    queryKey: ['program', programId, 'caregivers', search],
    queryFn: ({ signal }) =>
      api.call(
        caregiversContract.list,
        { params: { programId: str(programId) }, query: { search: search || undefined } },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

export function useCaregiverLink(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ caregiverId, linked }: { caregiverId: number; linked: boolean }) =>
      api.call(linked ? caregiversContract.link : caregiversContract.unlink, {
        params: { patient_id: str(id), caregiver_id: str(caregiverId) },
      }),
    onSuccess: (answer) => client.setQueryData(patientKeys.caregivers(id), answer),
  });
}

export function useCreateCaregiver(programId: number) {
  return useMutation({
    mutationFn: (body: {
      first_name: string;
      last_name: string;
      relationship: string;
      phone_number?: string;
      email?: string;
    }) =>
      api.call(caregiversContract.create, {
        params: { programId: str(programId) },
        body: body as Parameters<typeof api.call<typeof caregiversContract.create>>[1]['body'],
      }),
  });
}

export function usePatientCohorts(id: number) {
  return useQuery({
    queryKey: patientKeys.cohorts(id),
    queryFn: ({ signal }) =>
      api.call(groupsContract.patientGroups, { query: { patient_id: str(id) } }, { signal }),
  });
}

// ---------------------------------------------------------------------------------------------------------
// Medication (01 §7 "Usages, orders, regimens, pods", "Drugs and disease states").

export function useMedicationPlan(programId: number, id: number) {
  return useQuery({
    queryKey: ['patient', id, 'medication', programId],
    queryFn: ({ signal }) =>
      api.call(medicationsContract.plan, { params: { programId: str(programId), id: str(id) } }, { signal }),
  });
}

function useMedicationChanged(id: number) {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: ['patient', id, 'medication'] });
}

/**
 * Orders a medication and schedules its regimen under the order: two calls. When the second fails (a conflict,
 * the network), the order already made is kept and a retry with the same order reuses it rather than ordering
 * the medication twice.
 */
export function useOrderAndSchedule(programId: number, id: number) {
  const changed = useMedicationChanged(id);
  const made = useRef<{ key: string; orderId: number } | null>(null);
  return useMutation({
    mutationFn: async (input: { order: OrderBody; regimen: CreateRegimenBody }) => {
      const params = { programId: str(programId), id: str(id) };
      const key = JSON.stringify(input.order);
      let orderId = made.current?.key === key ? made.current.orderId : null;
      if (orderId === null) {
        const order = await api.call(medicationsContract.createOrder, {
          params,
          query: {},
          body: input.order,
        });
        orderId = order.id;
        made.current = { key, orderId };
      }
      const regimen = await api.call(medicationsContract.createRegimen, {
        params: { ...params, orderId: str(orderId) },
        body: input.regimen,
      });
      made.current = null;
      return regimen;
    },
    onSettled: changed,
  });
}

// ---------------------------------------------------------------------------------------------------------
// The drug and condition catalogue (01 §7 "Drugs and disease states"). A failed lookup answers an empty list
// (01 §8): the form stays usable with free text.

const emptyOnFailure = async <T>(call: () => Promise<{ data: T[] }>): Promise<{ data: T[] }> => {
  try {
    return await call();
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    return { data: [] };
  }
};

/** Medications whose generic or brand name starts with `query` (at least 2 characters). */
export function useDrugSearch(programId: number, query: string) {
  return useQuery({
    queryKey: ['catalogue', 'drugs', programId, query.toLowerCase()],
    queryFn: ({ signal }) =>
      emptyOnFailure(() =>
        api.call(
          catalogueContract.drugs,
          { params: { programId: str(programId) }, query: { query } },
          { signal },
        ),
      ),
    enabled: query.length >= 2,
    staleTime: 10 * 60_000,
    placeholderData: keepPreviousData,
  });
}

/** One drug's strengths, forms or routes from the catalogue (empty for a drug it does not know). */
export function useDrugAttribute(
  programId: number,
  drug: string,
  attribute: 'strengths' | 'forms' | 'routes',
) {
  return useQuery({
    queryKey: ['catalogue', 'drug', programId, drug.toLowerCase(), attribute],
    queryFn: ({ signal }) =>
      emptyOnFailure(() =>
        api.call(
          catalogueContract[attribute],
          { params: { programId: str(programId), q: drug } },
          { signal },
        ),
      ),
    enabled: drug.length >= 2,
    staleTime: 10 * 60_000,
  });
}

/** ICD-10-CM codes by code prefix or words of the description; a failed lookup empties the list (01 §8). */
export function useDiagnosisCodes(programId: number, query: string) {
  return useQuery({
    queryKey: ['catalogue', 'diagnosis-codes', programId, query.toLowerCase()],
    queryFn: ({ signal }) =>
      emptyOnFailure(() =>
        api.call(
          catalogueContract.diagnosisCodes,
          { params: { programId: str(programId) }, query: { query } },
          { signal },
        ),
      ),
    enabled: query.length >= 2,
    staleTime: 10 * 60_000,
    placeholderData: keepPreviousData,
  });
}

/** A smart inhaler regimen (no order): POST {p}/users/{userId}/regimens/inhaler. */
export function useInhalerRegimen(programId: number, id: number) {
  const changed = useMedicationChanged(id);
  return useMutation({
    mutationFn: (body: InhalerRegimenBody) =>
      api.call(medicationsContract.inhalerRegimen, {
        params: { programId: str(programId), userId: str(id) },
        body,
      }),
    onSuccess: changed,
  });
}

/** Changes a regimen's schedule (PUT regimens/{r}); the server checks the whole schedule again. */
export function useUpdateRegimen(id: number) {
  const changed = useMedicationChanged(id);
  return useMutation({
    mutationFn: ({ regimenId, body }: { regimenId: number; body: UpdateRegimenBody }) =>
      api.call(medicationsContract.updateRegimen, { params: { regimenId: str(regimenId) }, body }),
    onSuccess: changed,
  });
}

/** Adds a prescription, or changes one (with its id): PUT …/users/{id}/scripts. */
export function useSaveScript(programId: number, id: number) {
  const changed = useMedicationChanged(id);
  return useMutation({
    mutationFn: (script: ScriptBody) =>
      api.call(medicationsContract.scripts, {
        params: { programId: str(programId), id: str(id) },
        body: { scripts: [script] },
      }),
    onSuccess: changed,
  });
}

export function useCompleteRegimen(programId: number, id: number) {
  const changed = useMedicationChanged(id);
  return useMutation({
    mutationFn: (regimenId: number) =>
      api.call(medicationsContract.completeRegimen, {
        params: { programId: str(programId), id: str(id), regimenId: str(regimenId) },
      }),
    onSuccess: changed,
  });
}

export function useAddPods(programId: number, id: number) {
  const changed = useMedicationChanged(id);
  return useMutation({
    mutationFn: (input: {
      regimenId: number;
      prefix: string;
      servings: number;
      num: number;
      /** Pods of a dose of several regimens: they also serve this one (`regimens/pods/link`). */
      linkedRegimenId?: number | null;
    }) => {
      const pods = {
        prefix: input.prefix,
        original_servings: input.servings,
        servings_remaining: input.servings,
        num: input.num,
      };
      return input.linkedRegimenId
        ? api.call(medicationsContract.linkPods, {
            params: { programId: str(programId), userId: str(id) },
            body: { ...pods, regimen: input.regimenId, linked_regimen: input.linkedRegimenId },
          })
        : api.call(medicationsContract.createPods, {
            params: { programId: str(programId), id: str(id), regimenId: str(input.regimenId) },
            body: pods,
          });
    },
    onSuccess: changed,
  });
}

/** A dose recorded by hand (servings leave the chosen pod), and its removal (they come back). */
export function useManualDoses(programId: number, id: number) {
  const client = useQueryClient();
  // A dose moves the plan's pods and every adherence view of the patient.
  const changed = () => void client.invalidateQueries({ queryKey: patientKeys.all(id) });
  const params = { programId: str(programId), id: str(id) };
  return {
    record: useMutation({
      mutationFn: (body: UsageBody) => api.call(medicationsContract.recordUsage, { params, body }),
      onSuccess: changed,
    }),
    remove: useMutation({
      mutationFn: (usageId: number) =>
        api.call(medicationsContract.deleteUsage, { params: { ...params, usageId: str(usageId) } }),
      onSuccess: changed,
    }),
  };
}

export function printLabels(programId: number, id: number, barcodes: string[]) {
  return api.download(medicationsContract.labels, {
    params: { programId: str(programId), userId: str(id) },
    query: { barcodes: barcodes.join(',') },
  });
}

/** The barcodes the next pods of a regimen would get (`get_codes`, nothing saved); `body` is the JSON pod body. */
export function usePodCodes(programId: number, id: number, regimenId: number, body: string) {
  return useQuery({
    queryKey: ['patient', id, 'medication', 'pod-codes', regimenId, body],
    queryFn: ({ signal }) =>
      api.call(
        medicationsContract.podCodes,
        {
          params: { programId: str(programId), userId: str(id), regimenId: str(regimenId) },
          body: JSON.parse(body) as PodBody,
        },
        { signal },
      ),
    enabled: body !== '',
    staleTime: 0,
  });
}

/** One pod's label (01 §7 `…/regimens/{r}/pods/{pod}/barcodes/{barcode}`). */
export function printPodLabel(
  programId: number,
  id: number,
  pod: { id: number; regimen_id: number; barcode: string },
) {
  return api.download(medicationsContract.podLabel, {
    params: {
      programId: str(programId),
      userId: str(id),
      regimenId: str(pod.regimen_id),
      podId: str(pod.id),
      barcode: pod.barcode,
    },
  });
}

export function useDiseaseStates(programId: number, id: number) {
  const changed = useMedicationChanged(id);
  const params = { programId: str(programId), id: str(id) };
  return {
    add: useMutation({
      mutationFn: ({ regimenId, ...condition }: { code: string; description: string; regimenId?: number }) =>
        api.call(medicationsContract.addDiseaseState, {
          params,
          query: regimenId ? { regimen_id: str(regimenId) } : {},
          body: { conditions: [condition] },
        }),
      onSuccess: changed,
    }),
    link: useMutation({
      mutationFn: ({ diseaseStateId, regimenIds }: { diseaseStateId: number; regimenIds: number[] }) =>
        api.call(medicationsContract.linkDiseaseStateRegimens, {
          params,
          body: { disease_state_id: diseaseStateId, regimen_ids: regimenIds },
        }),
      onSuccess: changed,
    }),
    end: useMutation({
      mutationFn: (diseaseStateId: number) =>
        api.call(medicationsContract.endDiseaseState, { params, body: { disease_state_id: diseaseStateId } }),
      onSuccess: changed,
    }),
    remove: useMutation({
      mutationFn: (diseaseStateId: number) =>
        api.call(medicationsContract.deleteDiseaseState, {
          params,
          body: { disease_state_id: diseaseStateId },
        }),
      onSuccess: changed,
    }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Medication reconciliation (02 §7).

export function useMedRec(programId: number, id: number) {
  return useQuery({
    queryKey: ['patient', id, 'med-rec', programId],
    queryFn: ({ signal }) =>
      api.call(
        medRecContract.list,
        { params: { patientId: str(id) }, query: { program_id: str(programId) } },
        { signal },
      ),
  });
}

export function useMedRecActions(id: number) {
  const client = useQueryClient();
  const changed = () => void client.invalidateQueries({ queryKey: ['patient', id, 'med-rec'] });
  const params = { patientId: str(id) };
  return {
    store: useMutation({
      mutationFn: (body: MedRecBody) => api.call(medRecContract.store, { params, body }),
      onSuccess: changed,
    }),
    update: useMutation({
      mutationFn: ({ medicationId, body }: { medicationId: number; body: MedRecBody }) =>
        api.call(medRecContract.update, { params: { ...params, medicationId: str(medicationId) }, body }),
      onSuccess: changed,
    }),
    input: useMutation({
      mutationFn: ({
        medicationId,
        key,
        value,
      }: {
        medicationId: number;
        key: (typeof MED_REC_KEYS)[number];
        value: string | null;
      }) =>
        api.call(medRecContract.updateInput, {
          params: { ...params, medicationId: str(medicationId) },
          body: { key, value },
        }),
      onSuccess: changed,
    }),
    archive: useMutation({
      mutationFn: (medicationId: number) =>
        api.call(medRecContract.archive, { params: { ...params, medicationId: str(medicationId) } }),
      onSuccess: changed,
    }),
    method: useMutation({
      mutationFn: (value: (typeof MED_REC_METHODS)[number]) =>
        api.call(medRecContract.updateMethod, { params, body: { value } }),
      onSuccess: changed,
    }),
  };
}
