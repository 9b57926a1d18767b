import { MEMORY_MESSAGES } from '@caredeck/contracts';
import { programAccess } from '../../platform/access/access.queries';
import type { StaffActor } from '../../platform/access/actor';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { deleteMemory, findMemory, type MemoryRow, upsertMemory } from './memory.queries';

const view = (m: MemoryRow) => ({ ...m, updated_at: new Date(m.updated_at).toISOString() });

/** User memory (02 §7): each staff member's own settings per module, in programs they work in. */
export function createMemoryService(deps: { db: Database }) {
  const { db } = deps;

  /** The program must be one the actor works in: another program answers 404, like any object of it. */
  async function checkProgram(actor: StaffActor, programId: number) {
    const program = await programAccess(db, actor.adminId, programId);
    if (!program || program.roles.length === 0) throw AppError.notFound();
  }

  return {
    async get(actor: StaffActor, input: { module_name: string; program_id: number }) {
      await checkProgram(actor, input.program_id);
      const row = await findMemory(db, actor.adminId, input.program_id, input.module_name);
      return { data: row ? view(row) : null };
    },
    async save(
      actor: StaffActor,
      input: { module_name: string; program_id: number; default_settings: Record<string, unknown> },
      merge: boolean,
    ) {
      await checkProgram(actor, input.program_id);
      const row = await upsertMemory(db, {
        adminId: actor.adminId,
        programId: input.program_id,
        module: input.module_name,
        settings: input.default_settings,
        merge,
      });
      return { message: MEMORY_MESSAGES.stored, data: view(row) };
    },
    async remove(actor: StaffActor, input: { module_name: string; program_id: number }) {
      await checkProgram(actor, input.program_id);
      await deleteMemory(db, actor.adminId, input.program_id, input.module_name);
      return { message: MEMORY_MESSAGES.deleted };
    },
  };
}

export type MemoryService = ReturnType<typeof createMemoryService>;
