import { z } from 'zod';
import { bodyId, idParam, line, text, withoutDefaults } from './common';
import { defineRoute } from './route';

/** 02 §3/§7 "Tags" and "Protocols" (ADR 038): a program's tags in folders, put on patients; care protocols. */
export const TAG_MESSAGES = {
  created: 'Tag created successfully!',
  updated: 'Tag Updated successfully!',
  folderCreated: 'Folder created successfully!',
  folderUpdated: 'Folder Updated successfully!',
  folderDeleted: 'Folder Deleted successfully!',
  patientTagged: 'Patient tags updated',
  notFound: 'Tag not found',
  folderNotFound: 'Folder not found',
  nameTaken: 'A tag of that name exists already in the program.',
  folderNameTaken: 'A folder of that name exists already.',
  unknownTags: 'Some tags are not tags of the patient’s program.',
} as const;

export const PROTOCOL_MESSAGES = {
  created: 'Protocol Created',
  updated: 'Protocol Updated',
  failed: 'Unable to create, try again later',
  notFound: 'Protocol not found',
  nameTaken: 'A protocol of that name exists already in the program.',
} as const;

/** A colour as given in a change: absent keeps the current one (no default), null removes it. */
const colorChange = line()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour like #4c6ef5.')
  .nullable();
const color = colorChange.default(null);

export const tag = z.object({
  id: z.number().int(),
  program_id: z.number().int(),
  folder_id: z.number().int().nullable(),
  name: z.string(),
  color: z.string().nullable(),
  /** Patients carrying the tag. */
  patients: z.number().int(),
});
export type Tag = z.infer<typeof tag>;

export const tagFolder = z.object({
  id: z.number().int(),
  program_id: z.number().int(),
  name: z.string(),
  tags: z.number().int(),
});
export type TagFolder = z.infer<typeof tagFolder>;

export const protocolStep = z.object({
  title: line().trim().min(1, 'Name the step.').max(200),
  detail: text().trim().max(4000).default(''),
});
export const protocol = z.object({
  id: z.number().int(),
  program_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  steps: z.array(z.object({ title: z.string(), detail: z.string() })),
  active: z.boolean(),
  version: z.number().int(),
  updated_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  updated_at: z.string(),
});
export type Protocol = z.infer<typeof protocol>;
export const protocolBody = z.object({
  name: line().trim().min(1, 'Name the protocol.').max(160),
  description: text().trim().max(4000).default(''),
  steps: z.array(protocolStep).max(50).default([]),
  active: z.boolean().default(true),
});
export type ProtocolBody = z.input<typeof protocolBody>;
/** A new version of a protocol: the name, and whatever else changes (the rest is kept). */
export const protocolUpdateBody = z
  .object(withoutDefaults(protocolBody.shape))
  .partial()
  .required({ name: true });
export type ProtocolUpdateBody = z.input<typeof protocolUpdateBody>;

const tagName = line().trim().min(1, 'Name the tag.').max(60);
const folderName = line().trim().min(1, 'Name the folder.').max(80);
const tags = ['tags'] as const;
const idParams = z.object({ id: idParam });

export const tagsContract = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/tags',
    summary: "A program's tags by name (folder_id: one folder's), with how many patients carry each",
    tags,
    query: z.object({ program_id: idParam, folder_id: idParam.optional() }),
    responses: { 200: z.object({ data: z.array(tag) }) },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/tags',
    summary: 'Create a tag',
    tags,
    body: z.object({ program_id: bodyId, name: tagName, folder_id: bodyId.nullable().default(null), color }),
    responses: { 201: z.object({ message: z.string(), data: tag }) },
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/v1/tags/:id',
    summary: 'Rename, recolour or move a tag to a folder',
    tags,
    params: idParams,
    body: z.object({
      name: tagName.optional(),
      folder_id: bodyId.nullable().optional(),
      color: colorChange.optional(),
    }),
    responses: { 200: z.object({ message: z.string(), data: tag }) },
  }),
  folders: defineRoute({
    method: 'GET',
    path: '/api/v1/tags/folders',
    summary: "A program's tag folders by name",
    tags,
    query: z.object({ program_id: idParam }),
    responses: { 200: z.object({ data: z.array(tagFolder) }) },
  }),
  createFolder: defineRoute({
    method: 'POST',
    path: '/api/v1/tags/folder',
    summary: 'Create a tag folder',
    tags,
    body: z.object({ program_id: bodyId, name: folderName }),
    responses: { 201: z.object({ message: z.string(), data: tagFolder }) },
  }),
  updateFolder: defineRoute({
    method: 'PUT',
    path: '/api/v1/tags/folder/:id',
    summary: 'Rename a tag folder',
    tags,
    params: idParams,
    body: z.object({ name: folderName }),
    responses: { 200: z.object({ message: z.string(), data: tagFolder }) },
  }),
  deleteFolder: defineRoute({
    method: 'DELETE',
    path: '/api/v1/tags/folder/:id',
    summary: 'Delete a tag folder; its tags stay, outside any folder',
    tags,
    params: idParams,
    responses: { 200: z.object({ message: z.string() }) },
  }),
  patientTags: defineRoute({
    method: 'GET',
    path: '/api/v1/users/:id/tags',
    summary: "The patient's tags (designed: 02 shows no call that tags a patient)",
    tags,
    params: idParams,
    responses: { 200: z.object({ data: z.array(tag) }) },
  }),
  setPatientTags: defineRoute({
    method: 'PUT',
    path: '/api/v1/users/:id/tags',
    summary: "Replace the patient's tags (tags of the patient's program)",
    tags,
    params: idParams,
    body: z.object({ tag_ids: z.array(bodyId).max(50) }),
    responses: { 200: z.object({ message: z.string(), data: z.array(tag) }) },
  }),
};

export const protocolsContract = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/protocols',
    summary: "A program's care protocols by name",
    tags: ['protocols'],
    query: z.object({ program_id: idParam }),
    responses: { 200: z.object({ data: z.array(protocol) }) },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/protocols',
    summary: "Create a care protocol: its name, description and steps ('Protocol Created')",
    tags: ['protocols'],
    body: protocolBody.extend({ program_id: bodyId }),
    responses: { 201: z.object({ message: z.string(), data: protocol }) },
  }),
  update: defineRoute({
    method: 'POST',
    path: '/api/v1/protocols/:id',
    summary: "Update a protocol: a new version ('Protocol Updated')",
    tags: ['protocols'],
    params: idParams,
    body: protocolUpdateBody,
    responses: { 200: z.object({ message: z.string(), data: protocol }) },
  }),
};
