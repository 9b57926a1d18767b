import {
  CARE_ROLES,
  TAG_MESSAGES as M,
  PROTOCOL_MESSAGES as PM,
  type ProtocolBody,
  type ProtocolUpdateBody,
  RULE_EDITOR_ROLES,
  type StaffRole,
} from '@caredeck/contracts';
import type { StaffActor } from '../../platform/access/actor';
import { requireProgramRole } from '../../platform/access/program-role';
import { audit } from '../../platform/audit/audit';
import type { Database } from '../../platform/db/client';
import { isUniqueViolation } from '../../platform/db/errors';
import { AppError } from '../../platform/http/errors';
import {
  countTagsOfProgram,
  deleteFolder,
  folderProgram,
  foldersOf,
  insertFolder,
  insertProtocol,
  insertTag,
  protocolsOf,
  renameFolder,
  setPatientTags,
  tagsOf,
  tagsOfPatient,
  updateProtocol,
  updateTag,
} from './tags.queries';

/** Who curates tags and tags patients: the care roles. Protocols: the clinical roles. */
export const TAG_EDITOR_ROLES: readonly StaffRole[] = CARE_ROLES;
export const PROTOCOL_EDITOR_ROLES: readonly StaffRole[] = RULE_EDITOR_ROLES;

/** Turns a unique-name violation into the field's 422. */
async function uniqueName<T>(work: () => Promise<T>, field: string, message: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw AppError.validation({ [field]: [message] });
    throw error;
  }
}

/** 02 §7 "Tags" and "Protocols" (ADR 038). */
export function createTagsService(deps: { db: Database }) {
  const { db } = deps;
  const programOf = (actor: StaffActor) => actor.program!.id;

  const programFor = (actor: StaffActor, programId: number, roles?: readonly StaffRole[]) =>
    requireProgramRole(db, actor.adminId, programId, roles);

  async function folderIn(programId: number, folderId: number | null | undefined) {
    if (folderId === null || folderId === undefined) return;
    if ((await folderProgram(db, folderId)) !== programId)
      throw AppError.validation({ folder_id: [M.folderNotFound] });
  }

  return {
    async list(actor: StaffActor, q: { program_id: number; folder_id?: number }) {
      return { data: await tagsOf(db, await programFor(actor, q.program_id), { folderId: q.folder_id }) };
    },
    async create(
      actor: StaffActor,
      input: { program_id: number; name: string; folder_id: number | null; color: string | null },
    ) {
      const programId = await programFor(actor, input.program_id, TAG_EDITOR_ROLES);
      await folderIn(programId, input.folder_id);
      const id = await uniqueName(
        () =>
          insertTag(db, {
            programId,
            name: input.name,
            folderId: input.folder_id,
            color: input.color,
            createdBy: actor.adminId,
          }),
        'name',
        M.nameTaken,
      );
      return { message: M.created, data: (await tagsOf(db, programId, { id }))[0]! };
    },
    async update(
      actor: StaffActor,
      id: number,
      input: { name?: string; folder_id?: number | null; color?: string | null },
    ) {
      const programId = programOf(actor);
      await folderIn(programId, input.folder_id);
      await uniqueName(
        () => updateTag(db, id, { name: input.name, folderId: input.folder_id, color: input.color }),
        'name',
        M.nameTaken,
      );
      return { message: M.updated, data: (await tagsOf(db, programId, { id }))[0]! };
    },
    async folders(actor: StaffActor, programId: number) {
      return { data: await foldersOf(db, await programFor(actor, programId)) };
    },
    async createFolder(actor: StaffActor, input: { program_id: number; name: string }) {
      const programId = await programFor(actor, input.program_id, TAG_EDITOR_ROLES);
      const id = await uniqueName(() => insertFolder(db, programId, input.name), 'name', M.folderNameTaken);
      return { message: M.folderCreated, data: (await foldersOf(db, programId, id))[0]! };
    },
    async updateFolder(actor: StaffActor, id: number, name: string) {
      const programId = programOf(actor);
      await uniqueName(() => renameFolder(db, id, name), 'name', M.folderNameTaken);
      return { message: M.folderUpdated, data: (await foldersOf(db, programId, id))[0]! };
    },
    async deleteFolder(_actor: StaffActor, id: number) {
      await deleteFolder(db, id);
      return { message: M.folderDeleted };
    },
    async patientTags(_actor: StaffActor, patientId: number) {
      return { data: await tagsOfPatient(db, patientId) };
    },
    async setPatientTags(actor: StaffActor, patientId: number, tagIds: number[]) {
      const programId = programOf(actor);
      const wanted = [...new Set(tagIds)];
      if ((await countTagsOfProgram(db, programId, wanted)) !== wanted.length)
        throw AppError.validation({ tag_ids: [M.unknownTags] });
      await db.transaction(async (tx) => {
        await setPatientTags(tx, patientId, wanted, actor.adminId);
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'patient.tags',
          subjectType: 'patient',
          subjectId: patientId,
          details: { tag_ids: wanted },
          ip: actor.ip,
        });
      });
      return { message: M.patientTagged, data: await tagsOfPatient(db, patientId) };
    },

    // ------------------------------------------------------------ protocols
    async protocols(actor: StaffActor, programId: number) {
      return { data: await protocolsOf(db, await programFor(actor, programId)) };
    },
    async createProtocol(actor: StaffActor, input: ProtocolBody & { program_id: number }) {
      const programId = await programFor(actor, input.program_id, PROTOCOL_EDITOR_ROLES);
      const id = await uniqueName(
        () =>
          db.transaction(async (tx) => {
            const created = await insertProtocol(tx, {
              programId,
              name: input.name,
              description: input.description ?? '',
              steps: input.steps ?? [],
              active: input.active ?? true,
              adminId: actor.adminId,
            });
            await audit(tx, {
              actorAdminId: actor.adminId,
              programId,
              action: 'protocol.create',
              subjectType: 'protocol',
              subjectId: created,
              details: {},
              ip: actor.ip,
            });
            return created;
          }),
        'name',
        PM.nameTaken,
      );
      return { message: PM.created, data: (await protocolsOf(db, programId, id))[0]! };
    },
    async updateProtocol(actor: StaffActor, id: number, input: ProtocolUpdateBody) {
      const programId = programOf(actor);
      await uniqueName(
        () =>
          db.transaction(async (tx) => {
            await updateProtocol(tx, id, {
              name: input.name,
              description: input.description,
              steps: input.steps,
              active: input.active,
              adminId: actor.adminId,
            });
            await audit(tx, {
              actorAdminId: actor.adminId,
              programId,
              action: 'protocol.update',
              subjectType: 'protocol',
              subjectId: id,
              details: {},
              ip: actor.ip,
            });
          }),
        'name',
        PM.nameTaken,
      );
      return { message: PM.updated, data: (await protocolsOf(db, programId, id))[0]! };
    },
  };
}

export type TagsService = ReturnType<typeof createTagsService>;
