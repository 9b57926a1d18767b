import { tagsContract as c, type ProtocolBody, protocolsContract as p } from '@caredeck/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../shared/api-client';

export const TAGS_KEY = ['tags'] as const;

export function useTags(programId: number) {
  return useQuery({
    queryKey: [...TAGS_KEY, 'list', programId],
    queryFn: ({ signal }) => api.call(c.list, { query: { program_id: String(programId) } }, { signal }),
    enabled: programId > 0,
    retry: 1,
  });
}

export function useTagFolders(programId: number) {
  return useQuery({
    queryKey: [...TAGS_KEY, 'folders', programId],
    queryFn: ({ signal }) => api.call(c.folders, { query: { program_id: String(programId) } }, { signal }),
    enabled: programId > 0,
    retry: 1,
  });
}

export function usePatientTags(patientId: number) {
  return useQuery({
    queryKey: [...TAGS_KEY, 'patient', patientId],
    queryFn: ({ signal }) => api.call(c.patientTags, { params: { id: String(patientId) } }, { signal }),
    retry: 1,
  });
}

export function useProtocols(programId: number) {
  return useQuery({
    queryKey: [...TAGS_KEY, 'protocols', programId],
    queryFn: ({ signal }) => api.call(p.list, { query: { program_id: String(programId) } }, { signal }),
    enabled: programId > 0,
    retry: 1,
  });
}

export const tagCalls = {
  create: (programId: number, name: string, folderId: number | null, color: string | null = null) =>
    api.call(c.create, { body: { program_id: programId, name, folder_id: folderId, color } }),
  update: (id: number, body: { name?: string; folder_id?: number | null; color?: string | null }) =>
    api.call(c.update, { params: { id: String(id) }, body }),
  createFolder: (programId: number, name: string) =>
    api.call(c.createFolder, { body: { program_id: programId, name } }),
  renameFolder: (id: number, name: string) =>
    api.call(c.updateFolder, { params: { id: String(id) }, body: { name } }),
  deleteFolder: (id: number) => api.call(c.deleteFolder, { params: { id: String(id) } }),
  setPatientTags: (patientId: number, tagIds: number[]) =>
    api.call(c.setPatientTags, { params: { id: String(patientId) }, body: { tag_ids: tagIds } }),
  createProtocol: (programId: number, body: ProtocolBody) =>
    api.call(p.create, { body: { program_id: programId, ...body } }),
  updateProtocol: (id: number, body: ProtocolBody) =>
    api.call(p.update, { params: { id: String(id) }, body }),
};
