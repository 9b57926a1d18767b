import { notesContract as c, type NewNoteFields } from '@caredeck/contracts';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { NOTES_CHANGED_EVENT, onLiveEvent, reloadLive } from '../../app/realtime';
import { api } from '../../shared/api-client';

export const NOTES_KEY = ['notes'] as const;
const PER_PAGE = 20;
const id = (value: number) => ({ id: String(value) });

/** Reloads a patient's notes when the server says they changed (a colleague wrote or changed one). */
function useLiveNotes(patientId: number) {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onLiveEvent(NOTES_CHANGED_EVENT, (payload) => {
        if ((payload as { patient_id?: number }).patient_id === patientId)
          void reloadLive(queryClient, { queryKey: [...NOTES_KEY, patientId] });
      }),
    [queryClient, patientId],
  );
}

/** The notes, pinned first then newest; further pages append (02 §7: paging appends, page 1 resets). */
export function useNotes(patientId: number) {
  useLiveNotes(patientId);
  return useInfiniteQuery({
    queryKey: [...NOTES_KEY, patientId, 'list'],
    queryFn: ({ pageParam, signal }) =>
      api.call(
        c.list,
        { params: id(patientId), query: { page: String(pageParam), per_page: String(PER_PAGE) } },
        { signal },
      ),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.current_page < last.last_page ? last.current_page + 1 : undefined),
    retry: 1,
  });
}

/** The calendar: notes written or followed up in some days. */
export function useNoteCalendar(patientId: number, start: string, end: string) {
  return useQuery({
    queryKey: [...NOTES_KEY, patientId, 'calendar', start, end],
    queryFn: ({ signal }) =>
      api.call(
        c.list,
        { params: id(patientId), query: { forCalendar: '1', start_date: start, end_date: end } },
        { signal },
      ),
    retry: 1,
  });
}

export function useNextFollowUp(programId: number, patientId: number) {
  return useQuery({
    queryKey: [...NOTES_KEY, patientId, 'next', programId],
    queryFn: ({ signal }) =>
      api.call(
        c.nextFollowUp,
        { params: { programId: String(programId), userId: String(patientId) } },
        { signal },
      ),
    retry: 1,
  });
}

export function useNoteHistory(noteId: number | null) {
  return useQuery({
    queryKey: [...NOTES_KEY, 'history', noteId],
    queryFn: async ({ signal }) => {
      const [log, edits] = await Promise.all([
        api.call(c.logs, { params: id(noteId!) }, { signal }),
        api.call(c.edits, { params: id(noteId!) }, { signal }),
      ]);
      return { log: log.data, edits: edits.data };
    },
    enabled: noteId !== null,
    retry: 1,
  });
}

export const noteCalls = {
  create: (patientId: number, fields: NewNoteFields, files: File[]) => {
    const form = new FormData();
    form.append('body', fields.body ?? '');
    if (fields.internal) form.append('internal', '1');
    if (fields.escalate) form.append('escalate', '1');
    if (fields.follow_up_date) form.append('follow_up_date', fields.follow_up_date);
    if (fields.follow_up_admin_id) form.append('follow_up_admin_id', String(fields.follow_up_admin_id));
    for (const file of files) form.append('files', file, file.name);
    return api.upload(c.create, { params: id(patientId) }, form);
  },
  /** An image the patient texted (saved from the phone or the provider), kept as a note. */
  imageNote: (programId: number, patientId: number, image: File) => {
    const form = new FormData();
    form.append('files', image, image.name);
    return api.upload(
      c.imageNote,
      { params: { programId: String(programId), patientId: String(patientId) } },
      form,
    );
  },
  update: (noteId: number, body: string) => api.call(c.update, { params: id(noteId), body: { body } }),
  remove: (noteId: number) => api.call(c.remove, { params: id(noteId) }),
  pin: (noteId: number, pinned: boolean) => api.call(c.pin, { params: id(noteId), body: { pinned } }),
  internal: (noteId: number, internal: boolean) =>
    api.call(c.internal, { params: id(noteId), body: { internal } }),
  escalation: (noteId: number, active: boolean) =>
    api.call(c.escalations, { params: id(noteId), body: { active } }),
  download: (noteId: number, fileId: number) =>
    api.download(c.file, { params: { id: String(noteId), fileId: String(fileId) } }),
  complete: (followUpId: number) => api.call(c.completeFollowUp, { params: id(followUpId) }),
  move: (followUpId: number, date: string, adminId: number | null) =>
    api.call(c.updateFollowUp, { params: id(followUpId), body: { date, adminId } }),
};

/** A note action's answer: what its toast says. */
export type NoteStep = () => Promise<{ message: string }>;
