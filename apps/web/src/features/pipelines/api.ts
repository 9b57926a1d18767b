import { pipelinesContract as c, type NewPipelineBody } from '@caredeck/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onLiveEvent, PIPELINES_CHANGED_EVENT, reloadLive } from '../../app/realtime';
import { api } from '../../shared/api-client';

export const PIPELINES_KEY = ['pipelines'] as const;

/** Runs a call that answers with a message: the message as a toast, failures as toasts, the board reloaded. */
export type Act = (call: () => Promise<{ message: string }>) => Promise<void>;

/** Reloads the pipelines shown when the server says one changed (a colleague moved a patient). */
function useLivePipelines() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onLiveEvent(PIPELINES_CHANGED_EVENT, () => {
        void reloadLive(queryClient, { queryKey: PIPELINES_KEY });
      }),
    [queryClient],
  );
}

export function usePipelines(programId: number, search: string) {
  useLivePipelines();
  return useQuery({
    queryKey: [...PIPELINES_KEY, 'list', programId, search],
    queryFn: ({ signal }) =>
      api.call(
        c.list,
        { params: { programId: String(programId) }, query: { compact: '1', ...(search ? { search } : {}) } },
        { signal },
      ),
    enabled: programId > 0,
    placeholderData: keepPreviousData,
    retry: 1,
  });
}

export function usePipeline(programId: number, pipelineId: number) {
  useLivePipelines();
  return useQuery({
    queryKey: [...PIPELINES_KEY, 'one', programId, pipelineId],
    queryFn: ({ signal }) =>
      api.call(
        c.get,
        { params: { programId: String(programId), pipeline_id: String(pipelineId) } },
        { signal },
      ),
    enabled: programId > 0,
    retry: 1,
  });
}

export function useTemplates(programId: number) {
  return useQuery({
    queryKey: [...PIPELINES_KEY, 'templates', programId],
    queryFn: ({ signal }) => api.call(c.templates, { query: { program_id: String(programId) } }, { signal }),
    enabled: programId > 0,
    retry: 1,
  });
}

export function usePatientPipelines(patientId: number | null) {
  return useQuery({
    queryKey: [...PIPELINES_KEY, 'patient', patientId],
    queryFn: ({ signal }) => api.call(c.userPipelines, { query: { user_id: String(patientId) } }, { signal }),
    enabled: patientId !== null,
    retry: 1,
  });
}

export function usePatientJourney(pipelineId: number, patientId: number | null) {
  return useQuery({
    queryKey: [...PIPELINES_KEY, 'journey', pipelineId, patientId],
    queryFn: async ({ signal }) => {
      const params = { pipeline_id: String(pipelineId), u: String(patientId) };
      const [history, logs] = await Promise.all([
        api.call(c.history, { params }, { signal }),
        api.call(c.logs, { params }, { signal }),
      ]);
      return { stays: history.data, logs: logs.data };
    },
    enabled: patientId !== null,
    retry: 1,
  });
}

const pid = (id: number) => ({ pipeline_id: String(id) });

export const pipelineCalls = {
  create: (programId: number, body: NewPipelineBody) =>
    api.call(c.create, { params: { programId: String(programId) }, body }),
  remove: (programId: number, pipelineId: number) =>
    api.call(c.remove, { params: { programId: String(programId), pipeline_id: String(pipelineId) } }),
  addUsers: (pipelineId: number, userIds: number[], stageId?: number) =>
    api.call(c.addUsers, { params: pid(pipelineId), body: { user_ids: userIds, stage_id: stageId } }),
  move: (pipelineId: number, patientId: number, toId: number) =>
    api.call(c.move, { params: { ...pid(pipelineId), u: String(patientId) }, body: { to_id: toId } }),
  complete: (programId: number, pipelineId: number, patientId: number, next: number | null) =>
    api.call(c.complete, {
      params: { programId: String(programId), pipeline_id: String(pipelineId), userId: String(patientId) },
      body: { new_pipeline_id: next },
    }),
  createStage: (pipelineId: number, name: string) =>
    api.call(c.createStage, { params: pid(pipelineId), body: { name, color: null } }),
  renameStage: (pipelineId: number, stageId: number, name: string) =>
    api.call(c.updateStage, { params: { ...pid(pipelineId), stage_id: String(stageId) }, body: { name } }),
  moveStage: (pipelineId: number, stageId: number, position: number) =>
    api.call(c.updateStage, {
      params: { ...pid(pipelineId), stage_id: String(stageId) },
      body: { position },
    }),
  deleteStage: (pipelineId: number, stageId: number) =>
    api.call(c.deleteStage, { params: { ...pid(pipelineId), stage_id: String(stageId) } }),
  saveTemplate: (programId: number, name: string, stages: { name: string; color: string | null }[]) =>
    api.call(c.createTemplate, { body: { program_id: programId, name, stages } }),
};

/** The spreadsheets, saved by the browser; each answers the file's name. */
export const downloadReport = (programId: number, pipelineId: number, month: string) =>
  api.download(c.download, {
    params: { programId: String(programId), pipeline_id: String(pipelineId) },
    query: month ? { month } : {},
  });
export const downloadStageReport = (pipelineId: number) =>
  api.download(c.stagesDownload, { params: pid(pipelineId) });
