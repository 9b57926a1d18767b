import {
  type AssignBody,
  surveysContract as c,
  type ResponseBody,
  type SurveyQuestionInput,
} from '@caredeck/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onLiveEvent, reloadLive, SURVEYS_CHANGED_EVENT } from '../../app/realtime';
import { api } from '../../shared/api-client';

export const SURVEYS_KEY = ['surveys'] as const;

/** Runs a call that answers with a message: the message as a toast, the survey lists reloaded after. */
export type Act = (call: () => Promise<{ message: string }>) => Promise<void>;

/** Reloads what is shown of surveys when the server says an assignment or response changed. */
function useLiveSurveys() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onLiveEvent(SURVEYS_CHANGED_EVENT, () => {
        void reloadLive(queryClient, { queryKey: SURVEYS_KEY });
      }),
    [queryClient],
  );
}

export function useSurveys(programId: number, folderId: number | null, search: string) {
  return useQuery({
    queryKey: [...SURVEYS_KEY, 'list', programId, folderId, search],
    queryFn: ({ signal }) =>
      api.call(
        c.list,
        {
          query: {
            program_id: String(programId),
            ...(folderId === null ? {} : { folder_id: String(folderId) }),
            ...(search ? { search } : {}),
          },
        },
        { signal },
      ),
    enabled: programId > 0,
    placeholderData: keepPreviousData,
    retry: 1,
  });
}

export function useSurveyFolders(programId: number) {
  return useQuery({
    queryKey: [...SURVEYS_KEY, 'folders', programId],
    queryFn: ({ signal }) => api.call(c.folders, { query: { program_id: String(programId) } }, { signal }),
    enabled: programId > 0,
    retry: 1,
  });
}

export function useSurveyCard(programId: number, surveyId: number | null) {
  return useQuery({
    queryKey: [...SURVEYS_KEY, 'card', programId, surveyId],
    queryFn: ({ signal }) =>
      api.call(c.card, { params: { programId: String(programId), surveyId: String(surveyId) } }, { signal }),
    enabled: programId > 0 && surveyId !== null,
    retry: 1,
  });
}

export type WorklistStatus = 'todo' | 'open' | 'overdue' | 'flagged' | 'completed' | 'scheduled';

export function useSurveyWorklist(
  programId: number,
  q: { status: WorklistStatus; page: number; search: string },
) {
  useLiveSurveys();
  return useQuery({
    queryKey: [...SURVEYS_KEY, 'worklist', programId, q],
    queryFn: ({ signal }) =>
      api.call(
        c.worklist,
        {
          params: { programId: String(programId) },
          query: {
            status: q.status,
            page: String(q.page),
            per_page: '25',
            ...(q.search ? { search: q.search } : {}),
          },
        },
        { signal },
      ),
    enabled: programId > 0,
    placeholderData: keepPreviousData,
    retry: 1,
  });
}

export function usePatientSurveys(patientId: number) {
  useLiveSurveys();
  return useQuery({
    queryKey: [...SURVEYS_KEY, 'patient', patientId],
    queryFn: ({ signal }) =>
      api.call(c.patientSurveys, { params: { id: String(patientId) }, query: {} }, { signal }),
    retry: 1,
  });
}

export function useAvailableSurveys(patientId: number, enabled: boolean) {
  return useQuery({
    queryKey: [...SURVEYS_KEY, 'patient', patientId, 'available'],
    queryFn: ({ signal }) =>
      api.call(
        c.patientSurveys,
        { params: { id: String(patientId) }, query: { available: '1' } },
        { signal },
      ),
    enabled,
    retry: 1,
  });
}

export function useAssignmentResponses(patientId: number, assignmentId: number | null) {
  return useQuery({
    queryKey: [...SURVEYS_KEY, 'patient', patientId, 'responses', assignmentId],
    queryFn: ({ signal }) =>
      api.call(
        c.assignmentResponses,
        { params: { id: String(patientId), su: String(assignmentId) } },
        { signal },
      ),
    enabled: assignmentId !== null,
    retry: 1,
  });
}

export function useEngagements(programId: number, patientId: number, surveyId: number | null) {
  return useQuery({
    queryKey: [...SURVEYS_KEY, 'patient', patientId, 'engagements', surveyId],
    queryFn: ({ signal }) =>
      api.call(
        c.engagements,
        {
          params: { programId: String(programId), patientId: String(patientId), surveyId: String(surveyId) },
        },
        { signal },
      ),
    enabled: surveyId !== null,
    retry: 1,
  });
}

const s = (id: number) => ({ s: String(id) });
const trigger = (programId: number, surveyId: number) => ({
  programId: String(programId),
  surveyId: String(surveyId),
});

export const surveyCalls = {
  create: (
    programId: number,
    body: { name: string; description: string; questions: SurveyQuestionInput[] },
  ) => api.call(c.create, { body: { program_id: programId, ...body } }),
  saveQuestions: (
    surveyId: number,
    body: { name: string; description: string; questions: SurveyQuestionInput[] },
  ) => api.call(c.questions, { params: s(surveyId), body }),
  updateLink: (surveyId: number, url: string | null, analyseUrl: string | null) =>
    api.call(c.updateLink, { params: s(surveyId), body: { url, analyse_url: analyseUrl } }),
  moveToFolder: (surveyId: number, folderId: number | null) =>
    folderId === null
      ? api.call(c.removeFromFolder, { params: s(surveyId) })
      : api.call(c.moveToFolder, { params: s(surveyId), body: { folder_id: folderId } }),
  createFolder: (programId: number, name: string) =>
    api.call(c.createFolder, { body: { program_id: programId, name } }),
  renameFolder: (folderId: number, name: string) =>
    api.call(c.updateFolder, { body: { folder_id: folderId, name } }),
  deleteFolder: (folderId: number) => api.call(c.deleteFolder, { query: { folder_id: String(folderId) } }),
  setTrigger: (
    programId: number,
    surveyId: number,
    t: { id: number; kind: 'score' | 'question' },
    value: number | null,
  ) =>
    t.kind === 'score'
      ? api.call(c.scoreTrigger, {
          params: { ...trigger(programId, surveyId), triggerId: String(t.id) },
          body: { value },
        })
      : api.call(c.questionTrigger, {
          params: { ...trigger(programId, surveyId), questionTriggerId: String(t.id) },
          body: { value },
        }),
  toggleTrigger: (
    programId: number,
    surveyId: number,
    t: { id: number; kind: 'score' | 'question' },
    isActive: boolean,
  ) =>
    t.kind === 'score'
      ? api.call(c.toggleScoreTrigger, {
          params: { ...trigger(programId, surveyId), triggerId: String(t.id) },
          body: { is_active: isActive },
        })
      : api.call(c.toggleQuestionTrigger, {
          params: { ...trigger(programId, surveyId), questionTriggerId: String(t.id) },
          body: { is_active: isActive },
        }),
  assign: (patientId: number, surveyId: number, body: AssignBody) =>
    api.call(c.assign, { params: { id: String(patientId), s: String(surveyId) }, body }),
  unassign: (patientId: number, surveyId: number) =>
    api.call(c.unassign, { params: { id: String(patientId), s: String(surveyId) } }),
  respond: (patientId: number, assignmentId: number, body: ResponseBody) =>
    api.call(c.respond, { params: { id: String(patientId), su: String(assignmentId) }, body }),
};
