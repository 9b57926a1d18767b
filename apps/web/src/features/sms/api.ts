import { smsContract as c } from '@caredeck/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onLiveEvent, reloadLive, SMS_CHANGED_EVENT } from '../../app/realtime';
import { api } from '../../shared/api-client';

export const SMS_KEY = ['sms'] as const;

export function useSmsThread(programId: number, patientId: number, perPage: number) {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onLiveEvent(SMS_CHANGED_EVENT, () => {
        void reloadLive(queryClient, { queryKey: SMS_KEY });
      }),
    [queryClient],
  );
  return useQuery({
    queryKey: [...SMS_KEY, programId, patientId, perPage],
    queryFn: ({ signal }) =>
      api.call(
        c.thread,
        {
          params: { programId: String(programId), patientId: String(patientId) },
          query: { page: '1', per_page: String(perPage) },
        },
        { signal },
      ),
    retry: 1,
  });
}

export const sms = {
  send: (programId: number, patientId: number, message: string) =>
    api.call(c.send, {
      params: { programId: String(programId), patientId: String(patientId) },
      body: { message },
    }),
  markRead: (programId: number, patientId: number) =>
    api.call(c.markRead, { params: { programId: String(programId), patientId: String(patientId) } }),
};
