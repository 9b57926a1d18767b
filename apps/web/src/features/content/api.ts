import { contentContract as c, type TextMessageTemplateBody } from '@caredeck/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../shared/api-client';

export const CONTENT_KEY = ['content'] as const;

const programQuery = (programId: number) => ({ query: { program_id: String(programId) } });

export function useCategories(programId: number) {
  return useQuery({
    queryKey: [...CONTENT_KEY, 'categories', programId],
    queryFn: ({ signal }) => api.call(c.categories, programQuery(programId), { signal }),
    retry: 1,
  });
}

export function useFolders(programId: number) {
  return useQuery({
    queryKey: [...CONTENT_KEY, 'folders', programId],
    queryFn: ({ signal }) => api.call(c.folders, programQuery(programId), { signal }),
    retry: 1,
  });
}

export function useSmsQuestions(programId: number, enabled = true) {
  return useQuery({
    queryKey: [...CONTENT_KEY, 'questions', programId],
    queryFn: ({ signal }) => api.call(c.smsQuestions, programQuery(programId), { signal }),
    enabled,
    retry: 1,
  });
}

const id = (value: number) => ({ id: String(value) });

export const contentCalls = {
  createCategory: (programId: number, name: string) =>
    api.call(c.createCategory, { body: { program_id: programId, name } }),
  renameCategory: (categoryId: number, name: string) =>
    api.call(c.updateCategory, { params: id(categoryId), body: { name } }),
  deleteCategory: (categoryId: number) => api.call(c.deleteCategory, { params: id(categoryId) }),
  createContent: (categoryId: number, body: { title: string; body: string; url: string | null }) =>
    api.call(c.createContent, { params: id(categoryId), body }),
  createFolder: (programId: number, name: string) =>
    api.call(c.createFolder, { body: { program_id: programId, name } }),
  renameFolder: (folderId: number, name: string) =>
    api.call(c.updateFolder, { params: id(folderId), body: { name } }),
  deleteFolder: (folderId: number) => api.call(c.deleteFolder, { params: id(folderId) }),
  createTemplate: (folderId: number, body: TextMessageTemplateBody) =>
    api.call(c.createTemplate, { params: id(folderId), body }),
  updateTemplate: (templateId: number, body: TextMessageTemplateBody) =>
    api.call(c.updateTemplate, { params: id(templateId), body }),
  deleteTemplate: (templateId: number) => api.call(c.deleteTemplate, { params: id(templateId) }),
};

/** A template with its placeholders filled in for one patient (an unknown value leaves the placeholder). */
export type TemplateValues = { first_name?: string; last_name?: string; program?: string };
export function fillTemplate(body: string, values: TemplateValues) {
  return body.replace(
    /\{(first_name|last_name|program)\}/g,
    (whole, key: keyof TemplateValues) => values[key] || whole,
  );
}

/** A save or delete call of the content screens: what it answers is the toast's message. */
export type ContentCall<A = void> = (input: A) => Promise<{ message: string }>;
