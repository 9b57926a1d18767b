import {
  alertsContract,
  legacyAlertsContract,
  notesContract,
  notificationsContract,
  smsContract,
} from '@caredeck/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ALERTS_CHANGED_EVENT, onLiveEvent, reloadLive, SMS_CHANGED_EVENT } from '../../app/realtime';
import { api } from '../../shared/api-client';

export const ESCALATIONS_KEY = ['escalation-messages'] as const;
const str = (n: number) => String(n);

/** Reloads these pages when alerts or texts change on the server. */
export function useLiveEscalations() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const reload = () => void reloadLive(queryClient, { queryKey: ESCALATIONS_KEY });
    const offAlerts = onLiveEvent(ALERTS_CHANGED_EVENT, reload);
    const offSms = onLiveEvent(SMS_CHANGED_EVENT, reload);
    return () => {
      offAlerts();
      offSms();
    };
  }, [queryClient]);
}

/** A patient's open alerts (the escalated ones are shown). */
export function usePatientAlerts(programId: number, patientId: number) {
  return useQuery({
    queryKey: [...ESCALATIONS_KEY, 'patient-alerts', programId, patientId],
    queryFn: ({ signal }) =>
      api.call(
        legacyAlertsContract.list,
        { params: { programId: str(programId) }, query: { user_id: str(patientId), per_page: '100' } },
        { signal },
      ),
    retry: 1,
  });
}

export function useEscalatedNotes(patientId: number) {
  return useQuery({
    queryKey: [...ESCALATIONS_KEY, 'notes', patientId],
    queryFn: ({ signal }) =>
      api.call(
        notesContract.list,
        { params: { id: str(patientId) }, query: { escalated: '1', per_page: '100' } },
        { signal },
      ),
    retry: 1,
  });
}

/** The texts (both ways) and the notifications of a patient, the latest 100 of each. */
export function usePatientMessages(programId: number, patientId: number) {
  return useQuery({
    queryKey: [...ESCALATIONS_KEY, 'messages', programId, patientId],
    queryFn: async ({ signal }) => {
      const params = { programId: str(programId), patientId: str(patientId) };
      const [texts, notifications] = await Promise.all([
        api.call(smsContract.thread, { params, query: { page: '1', per_page: '100' } }, { signal }),
        api.call(
          notificationsContract.history,
          {
            params: { programId: str(programId), id: str(patientId) },
            query: { page: '1', per_page: '100' },
          },
          { signal },
        ),
      ]);
      return { texts, notifications };
    },
    retry: 1,
  });
}

/** The escalated alerts of a cohort's patients. */
export function useCohortEscalations(programId: number, groupId: number) {
  return useQuery({
    queryKey: [...ESCALATIONS_KEY, 'cohort', programId, groupId],
    queryFn: ({ signal }) =>
      api.call(
        alertsContract.list,
        {
          params: { type: 'all', period: 'all', cohort: str(groupId) },
          query: { program_id: str(programId), status: 'escalated', pagination: '100' },
        },
        { signal },
      ),
    retry: 1,
  });
}

export function useGroupMessages(groupId: number, page: number) {
  return useQuery({
    queryKey: [...ESCALATIONS_KEY, 'group-messages', groupId, page],
    queryFn: ({ signal }) =>
      api.call(
        smsContract.groupHistory,
        { params: { id: str(groupId) }, query: { page: str(page), per_page: '20' } },
        { signal },
      ),
    placeholderData: keepPreviousData,
    retry: 1,
  });
}

export const escalationCalls = {
  complete: (programId: number, patientIds: number[]) =>
    api.call(legacyAlertsContract.markEscalationCompleted, {
      params: { programId: str(programId) },
      body: { users: patientIds },
    }),
  inactivateNote: (noteId: number) =>
    api.call(notesContract.escalations, { params: { id: str(noteId) }, body: { active: false } }),
  messageCohort: (groupId: number, message: string) =>
    api.call(smsContract.groupSend, { params: { id: str(groupId) }, body: { message } }),
};

/** One action of these pages (its toast says what was done). */
export type EscalationStep = () => Promise<unknown>;
