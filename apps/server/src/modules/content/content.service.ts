import {
  CARE_ROLES,
  CONTENT_MESSAGES as M,
  type SmsQuestion,
  STANDARD_SMS_QUESTIONS,
  type StaffRole,
} from '@caredeck/contracts';
import type { StaffActor } from '../../platform/access/actor';
import { requireProgramRole } from '../../platform/access/program-role';
import { audit } from '../../platform/audit/audit';
import type { Database } from '../../platform/db/client';
import { isUniqueViolation } from '../../platform/db/errors';
import { AppError } from '../../platform/http/errors';
import {
  categoriesOf,
  deleteCategory,
  deleteFolder,
  deleteTemplate,
  folderOwner,
  foldersOf,
  insertCategory,
  insertContent,
  insertFolder,
  insertTemplate,
  questionTemplates,
  renameCategory,
  renameFolder,
  templateOwner,
  updateTemplate,
} from './content.queries';

type TemplateInput = { name: string; body: string; question: boolean };

/** Who curates a program's content library: the roles that look after patients. */
export const CONTENT_EDITOR_ROLES: readonly StaffRole[] = CARE_ROLES;

/**
 * 02 §7 "Content" (ADR 033). The library is the program's; folders and their templates are their owner's
 * alone: anyone else, in the program or not, gets the same 404 as for a folder that does not exist.
 */
export function createContentService(deps: { db: Database }) {
  const { db } = deps;

  const programOf = (actor: StaffActor, programId: number, roles?: readonly StaffRole[]) =>
    requireProgramRole(db, actor.adminId, programId, roles);

  async function ownFolder(actor: StaffActor, folderId: number) {
    const folder = await folderOwner(db, folderId);
    if (!folder || folder.owner_id !== actor.adminId) throw AppError.notFound(M.folderNotFound);
    return folder;
  }

  async function ownTemplate(actor: StaffActor, templateId: number) {
    const template = await templateOwner(db, templateId);
    if (!template || template.owner_id !== actor.adminId) throw AppError.notFound(M.templateNotFound);
    return template;
  }

  return {
    async categories(actor: StaffActor, programId: number) {
      return { data: await categoriesOf(db, await programOf(actor, programId)) };
    },

    async createCategory(actor: StaffActor, input: { program_id: number; name: string }) {
      const programId = await programOf(actor, input.program_id, CONTENT_EDITOR_ROLES);
      try {
        const id = await db.transaction(async (tx) => {
          const created = await insertCategory(tx, { programId, name: input.name, createdBy: actor.adminId });
          await audit(tx, {
            actorAdminId: actor.adminId,
            programId,
            action: 'content.category_created',
            subjectType: 'content_category',
            subjectId: created,
            ip: actor.ip,
          });
          return created;
        });
        return { message: M.categoryCreated, data: (await categoriesOf(db, programId, id))[0]! };
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.validation({ name: [M.categoryExists] });
        throw error;
      }
    },

    /** The access rule resolved the category's program and the caller's role there (ADR 076). */
    async updateCategory(actor: StaffActor, categoryId: number, input: { name: string }) {
      try {
        const programId = await db.transaction(async (tx) => {
          const program = await renameCategory(tx, categoryId, input.name);
          if (program === null) throw AppError.notFound(M.categoryNotFound);
          await audit(tx, {
            actorAdminId: actor.adminId,
            programId: program,
            action: 'content.category_renamed',
            subjectType: 'content_category',
            subjectId: categoryId,
            ip: actor.ip,
          });
          return program;
        });
        return { message: M.categoryUpdated, data: (await categoriesOf(db, programId, categoryId))[0]! };
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.validation({ name: [M.categoryExists] });
        throw error;
      }
    },

    /** The category and its content go; what was already sent to patients stays in their messages. */
    async deleteCategory(actor: StaffActor, categoryId: number) {
      await db.transaction(async (tx) => {
        const gone = await deleteCategory(tx, categoryId);
        if (!gone) throw AppError.notFound(M.categoryNotFound);
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId: gone.programId,
          action: 'content.category_deleted',
          subjectType: 'content_category',
          subjectId: categoryId,
          details: { items: gone.items },
          ip: actor.ip,
        });
      });
      return { message: M.categoryDeleted };
    },

    /** The access rule resolved the category's program and the caller's role there. */
    async createContent(
      actor: StaffActor,
      categoryId: number,
      input: { title: string; body: string; url: string | null },
    ) {
      const data = await db.transaction(async (tx) => {
        const item = await insertContent(tx, { categoryId, ...input, createdBy: actor.adminId });
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId: actor.program?.id ?? null,
          action: 'content.created',
          subjectType: 'content_item',
          subjectId: item.id,
          ip: actor.ip,
        });
        return item;
      });
      return { message: M.contentCreated, data };
    },

    async folders(actor: StaffActor, programId: number) {
      return { data: await foldersOf(db, await programOf(actor, programId), actor.adminId) };
    },

    async createFolder(actor: StaffActor, input: { program_id: number; name: string }) {
      const programId = await programOf(actor, input.program_id);
      try {
        const id = await insertFolder(db, { programId, ownerId: actor.adminId, name: input.name });
        return { message: M.folderCreated, data: (await foldersOf(db, programId, actor.adminId, id))[0]! };
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.validation({ name: [M.folderExists] });
        throw error;
      }
    },

    async updateFolder(actor: StaffActor, folderId: number, input: { name: string }) {
      const folder = await ownFolder(actor, folderId);
      try {
        await renameFolder(db, folderId, input.name);
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.validation({ name: [M.folderExists] });
        throw error;
      }
      return {
        message: M.folderUpdated,
        data: (await foldersOf(db, folder.program_id, actor.adminId, folderId))[0]!,
      };
    },

    async deleteFolder(actor: StaffActor, folderId: number) {
      await ownFolder(actor, folderId);
      await deleteFolder(db, folderId);
      return { message: M.folderDeleted };
    },

    async createTemplate(actor: StaffActor, folderId: number, input: TemplateInput) {
      await ownFolder(actor, folderId);
      return { message: M.templateCreated, data: await insertTemplate(db, folderId, input) };
    },

    async updateTemplate(
      actor: StaffActor,
      templateId: number,
      input: Omit<TemplateInput, 'question'> & { question?: boolean },
    ) {
      await ownTemplate(actor, templateId);
      return { message: M.templateUpdated, data: await updateTemplate(db, templateId, input) };
    },

    async deleteTemplate(actor: StaffActor, templateId: number) {
      await ownTemplate(actor, templateId);
      await deleteTemplate(db, templateId);
      return { message: M.templateDeleted };
    },

    /** The standard questions, then the caller's own question templates. */
    async smsQuestions(actor: StaffActor, programId: number): Promise<{ data: SmsQuestion[] }> {
      const mine = await questionTemplates(db, await programOf(actor, programId), actor.adminId);
      return {
        data: [
          ...STANDARD_SMS_QUESTIONS.map((q) => ({
            id: null,
            key: q.key,
            body: q.body,
            source: 'standard' as const,
          })),
          ...mine.map((t) => ({ id: t.id, key: t.name, body: t.body, source: 'mine' as const })),
        ],
      };
    },
  };
}

export type ContentService = ReturnType<typeof createContentService>;
