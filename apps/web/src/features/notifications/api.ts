import { notificationsContract as c, type PatientNotificationType } from '@caredeck/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onLiveEvent, reloadLive, SMS_CHANGED_EVENT } from '../../app/realtime';
import { api } from '../../shared/api-client';

export const NOTIFICATIONS_KEY = ['patient-notifications'] as const;

const patientParams = (programId: number, patientId: number) => ({
  programId: String(programId),
  id: String(patientId),
});

/** The notifications sent to a patient, newest first; an SMS one follows its text's delivery live. */
export function useNotificationHistory(programId: number, patientId: number, page: number) {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onLiveEvent(SMS_CHANGED_EVENT, () => {
        void reloadLive(queryClient, { queryKey: NOTIFICATIONS_KEY });
      }),
    [queryClient],
  );
  return useQuery({
    queryKey: [...NOTIFICATIONS_KEY, 'history', programId, patientId, page],
    queryFn: ({ signal }) =>
      api.call(
        c.history,
        { params: patientParams(programId, patientId), query: { page: String(page), per_page: '10' } },
        { signal },
      ),
    placeholderData: keepPreviousData,
    retry: 1,
  });
}

export function useAudioAssignments(programId: number, patientId: number) {
  return useQuery({
    queryKey: [...NOTIFICATIONS_KEY, 'audio', programId, patientId],
    queryFn: ({ signal }) =>
      api.call(c.audioAssignments, { params: patientParams(programId, patientId) }, { signal }),
    retry: 1,
  });
}

export function useSchedules(programId: number, patientId: number) {
  return useQuery({
    queryKey: [...NOTIFICATIONS_KEY, 'schedules', programId, patientId],
    queryFn: ({ signal }) =>
      api.call(c.schedules, { params: patientParams(programId, patientId) }, { signal }),
    retry: 1,
  });
}

export function useAudioLibrary(enabled: boolean) {
  return useQuery({
    queryKey: [...NOTIFICATIONS_KEY, 'library'],
    queryFn: ({ signal }) => api.call(c.audios, {}, { signal }),
    enabled,
    staleTime: 60 * 60_000,
    retry: 1,
  });
}

export const notificationCalls = {
  send: (
    programId: number,
    patientId: number,
    body: { type: PatientNotificationType; title: string; body: string; opted_in: boolean },
  ) => api.call(c.send, { params: patientParams(programId, patientId), body }),
  schedule: (programId: number, patientId: number, body: ScheduleBody) =>
    api.call(c.schedule, { params: patientParams(programId, patientId), body }),
  stopSchedule: (programId: number, patientId: number, scheduleId: number) =>
    api.call(c.stopSchedule, {
      params: { ...patientParams(programId, patientId), scheduleId: String(scheduleId) },
    }),
  assignAudio: (
    programId: number,
    body: { date: string; time: string; numToEnd: number; patientIds: number[]; audioIds: number[] },
  ) => api.call(c.assignAudio, { params: { programId: String(programId) }, body }),
};

export type ScheduleBody = {
  type: PatientNotificationType;
  title: string;
  body: string;
  time: string;
  days: number[];
  start_date: string;
  end_date: string | null;
};
