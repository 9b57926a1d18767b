import { NOTE_MESSAGES as M, type Note, pageOf } from '@caredeck/contracts';
import type { StaffActor } from '../../platform/access/actor';
import { audit, auditView } from '../../platform/audit/audit';
import type { Database, Queryable } from '../../platform/db/client';
import type { FileStorage } from '../../platform/files/storage';
import type { UploadedFile } from '../../platform/files/upload';
import { AppError } from '../../platform/http/errors';
import type { Realtime } from '../../platform/realtime/realtime';
import {
  CALENDAR_NOTES_MAX,
  completeFollowUp,
  editNote,
  followUpById,
  followUpForChange,
  insertFollowUp,
  insertNote,
  insertNoteFiles,
  isStaffOf,
  logNote,
  moveFollowUp,
  nextFollowUp,
  noteById,
  noteEdits,
  noteFile,
  noteLog,
  noteOwner,
  notesInDays,
  notesPage,
  patientInProgram,
  setEscalation,
  setNoteFlags,
  softDeleteNote,
} from './notes.queries';

/** Live: a patient's notes changed (ids only; the console reloads what it shows). */
export const NOTES_EVENT = 'notes.changed';

type NewNote = {
  body: string;
  internal: boolean;
  escalate: boolean;
  follow_up_date?: string;
  follow_up_admin_id?: number;
};

function programOf(actor: StaffActor): number {
  if (!actor.program) throw new Error('a notes use case needs the program the access hook resolved');
  return actor.program.id;
}

/**
 * 02 §7 "Notes and follow-ups" (ADR 034). The access rules resolve the patient's, note's or follow-up's
 * program and the caller's role there (another program: 404); each use case is one transaction that also
 * writes the note's log and the audit row.
 */
export function createNotesService(deps: { db: Database; storage: FileStorage; realtime: Realtime }) {
  const { db, storage, realtime } = deps;

  const changed = (programId: number, patientId: number) =>
    realtime.toProgram(programId, NOTES_EVENT, { patient_id: patientId });

  async function found(noteId: number): Promise<Note> {
    const note = await noteById(db, noteId);
    if (!note) throw AppError.notFound(M.notFound);
    return note;
  }

  async function create(
    actor: StaffActor,
    patientId: number,
    input: NewNote,
    files: UploadedFile[],
    kind: 'note' | 'sms_image' = 'note',
  ): Promise<Note> {
    const programId = programOf(actor);
    try {
      if (!input.body && files.length === 0) throw AppError.validation({ body: [M.empty] });
      if (!(await patientInProgram(db, programId, patientId))) throw AppError.notFound();
      const assignee = input.follow_up_admin_id ?? (input.follow_up_date ? actor.adminId : null);
      if (assignee !== null && !(await isStaffOf(db, programId, assignee)))
        throw AppError.validation({ follow_up_admin_id: [M.followUpAdmin] });
      const id = await db.transaction(async (tx) => {
        const noteId = await insertNote(tx, {
          programId,
          patientId,
          kind,
          body: input.body,
          internal: input.internal,
          escalate: input.escalate,
          authorId: actor.adminId,
        });
        await insertNoteFiles(tx, noteId, files);
        await logNote(tx, noteId, 'created', actor.adminId, { files: files.length, kind });
        if (input.escalate) await logNote(tx, noteId, 'escalated', actor.adminId);
        if (input.follow_up_date) {
          await insertFollowUp(tx, {
            noteId,
            programId,
            patientId,
            date: input.follow_up_date,
            adminId: assignee,
          });
          await logNote(tx, noteId, 'follow_up_set', actor.adminId, {
            date: input.follow_up_date,
            admin_id: assignee,
          });
        }
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'note.created',
          subjectType: 'patient',
          subjectId: patientId,
          details: { note_id: noteId, files: files.length, kind },
          ip: actor.ip,
        });
        return noteId;
      });
      changed(programId, patientId);
      return found(id);
    } catch (error) {
      await Promise.all(files.map((f) => storage.remove(f.key)));
      throw error;
    }
  }

  /** A change of a live note by anyone with a role in its program, logged and audited, then the note. */
  async function change(
    noteId: number,
    step: (
      tx: Queryable,
      note: { author_id: number | null; body: string; pinned: boolean; internal: boolean },
    ) => Promise<void>,
    message: string,
  ) {
    await db.transaction(async (tx) => {
      const current = await noteOwner(tx, noteId);
      if (!current) throw AppError.notFound(M.notFound);
      await step(tx, current);
    });
    const note = await found(noteId);
    changed(note.program_id, note.patient_id);
    return { message, data: note };
  }

  return {
    create: (actor: StaffActor, patientId: number, input: NewNote, files: UploadedFile[]) =>
      create(actor, patientId, input, files).then((data) => ({ message: M.created, data })),

    /** An image the patient texted, kept as a note (02: sms/create-image-note). */
    /**
     * 404 unless the patient is in the path's program: checked before the form is read, so another program's
     * patient answers 404 whatever the upload holds (ADR 004), not a 422 about the file.
     */
    async assertPatient(actor: StaffActor, patientId: number) {
      if (!(await patientInProgram(db, programOf(actor), patientId))) throw AppError.notFound();
    },

    async imageNote(actor: StaffActor, patientId: number, body: string, files: UploadedFile[]) {
      if (files.length === 0) throw AppError.validation({ files: [M.imageRequired] });
      const data = await create(
        actor,
        patientId,
        { body, internal: false, escalate: false },
        files,
        'sms_image',
      );
      return { message: M.imageNoteCreated, data };
    },

    async list(
      actor: StaffActor,
      patientId: number,
      query: {
        page: number;
        per_page: number;
        forCalendar?: boolean;
        start_date?: string;
        end_date?: string;
      },
    ) {
      const programId = programOf(actor);
      await auditView(db, {
        actorAdminId: actor.adminId,
        programId,
        action: 'phi.viewed',
        subjectType: 'patient',
        subjectId: patientId,
        details: { what: 'notes' },
        ip: actor.ip,
      });
      if (query.forCalendar) {
        if (!query.start_date || !query.end_date || query.end_date < query.start_date)
          throw AppError.validation({ end_date: ['Choose a start day on or before the end day.'] });
        const days = (Date.parse(query.end_date) - Date.parse(query.start_date)) / 86_400_000;
        if (days > 62) throw AppError.validation({ end_date: ['Choose at most 62 days.'] });
        // One page of up to CALENDAR_NOTES_MAX; a larger total (last_page > 1) says the days hold more.
        const { rows, total } = await notesInDays(db, programId, patientId, query.start_date, query.end_date);
        return pageOf(rows, { page: 1, per_page: CALENDAR_NOTES_MAX }, total);
      }
      const { rows, total } = await notesPage(db, programId, patientId, query);
      return pageOf(rows, query, total);
    },

    async logs(noteId: number) {
      await found(noteId);
      return { data: await noteLog(db, noteId) };
    },

    async edits(noteId: number) {
      await found(noteId);
      return { data: await noteEdits(db, noteId) };
    },

    update: (actor: StaffActor, noteId: number, body: string) =>
      change(
        noteId,
        async (tx, note) => {
          if (note.author_id !== actor.adminId) throw AppError.forbidden(M.onlyAuthor);
          if (note.body === body) return;
          await editNote(tx, noteId, note.body, body, actor.adminId);
          await logNote(tx, noteId, 'edited', actor.adminId);
        },
        M.updated,
      ),

    setInternal: (actor: StaffActor, noteId: number, internal: boolean) =>
      change(
        noteId,
        async (tx, note) => {
          if (note.internal === internal) return;
          await setNoteFlags(tx, noteId, { internal });
          await logNote(tx, noteId, internal ? 'internal' : 'shared', actor.adminId);
        },
        internal ? M.internal : M.shared,
      ),

    async pin(actor: StaffActor, noteId: number, pinned: boolean | undefined) {
      let next = false;
      const res = await change(
        noteId,
        async (tx, note) => {
          next = pinned ?? !note.pinned;
          if (note.pinned === next) return;
          await setNoteFlags(tx, noteId, { pinned: next });
          await logNote(tx, noteId, next ? 'pinned' : 'unpinned', actor.adminId);
        },
        '',
      );
      return { ...res, message: next ? M.pinned : M.unpinned };
    },

    escalation: (actor: StaffActor, noteId: number, active: boolean) =>
      change(
        noteId,
        async (tx) => {
          await setEscalation(tx, noteId, active, actor.adminId);
          await logNote(tx, noteId, active ? 'escalated' : 'escalation_inactivated', actor.adminId);
          await audit(tx, {
            actorAdminId: actor.adminId,
            programId: actor.program?.id ?? null,
            action: active ? 'note.escalated' : 'note.escalation_inactivated',
            subjectType: 'note',
            subjectId: noteId,
            ip: actor.ip,
          });
        },
        active ? M.escalationOn : M.escalationOff,
      ),

    /** The author, or a program admin, removes a note from the record (kept for the audit). */
    async remove(actor: StaffActor, noteId: number) {
      const note = await found(noteId);
      const admin = actor.program?.roles.some((r) => r === 'admin' || r === 'enterprise_admin') ?? false;
      await db.transaction(async (tx) => {
        const current = await noteOwner(tx, noteId);
        if (!current) throw AppError.notFound(M.notFound);
        if (current.author_id !== actor.adminId && !admin) throw AppError.forbidden();
        await softDeleteNote(tx, noteId, actor.adminId);
        await logNote(tx, noteId, 'deleted', actor.adminId);
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId: note.program_id,
          action: 'note.deleted',
          subjectType: 'note',
          subjectId: noteId,
          ip: actor.ip,
        });
      });
      changed(note.program_id, note.patient_id);
      return { message: M.deleted };
    },

    async file(noteId: number, fileId: number) {
      await found(noteId);
      const row = await noteFile(db, noteId, fileId);
      if (!row) throw AppError.notFound();
      const { stream, size } = await storage.open(row.storage_key);
      return { stream, size, fileName: row.file_name, contentType: row.content_type };
    },

    async completeFollowUp(actor: StaffActor, followUpId: number) {
      const programId = await db.transaction(async (tx) => {
        const f = await followUpForChange(tx, followUpId);
        if (!f) throw AppError.notFound(M.followUpNotFound);
        if (f.completed) throw AppError.conflict(M.alreadyCompleted);
        await completeFollowUp(tx, followUpId, actor.adminId);
        await logNote(tx, f.note_id, 'follow_up_completed', actor.adminId, { date: f.due_date });
        return f.program_id;
      });
      const data = (await followUpById(db, followUpId))!;
      changed(programId, data.patient_id);
      return { message: M.followUpCompleted, data };
    },

    async updateFollowUp(
      actor: StaffActor,
      followUpId: number,
      input: { date: string; adminId?: number | null },
    ) {
      const programId = await db.transaction(async (tx) => {
        const f = await followUpForChange(tx, followUpId);
        if (!f) throw AppError.notFound(M.followUpNotFound);
        if (f.completed) throw AppError.conflict(M.alreadyCompleted);
        const assignee = input.adminId === undefined ? f.admin_id : input.adminId;
        if (assignee !== null && !(await isStaffOf(tx, f.program_id, assignee)))
          throw AppError.validation({ adminId: [M.followUpAdmin] });
        await moveFollowUp(tx, followUpId, input.date, assignee);
        await logNote(tx, f.note_id, 'follow_up_changed', actor.adminId, {
          from: f.due_date,
          to: input.date,
          admin_id: assignee,
        });
        return f.program_id;
      });
      const data = (await followUpById(db, followUpId))!;
      changed(programId, data.patient_id);
      return { message: M.followUpUpdated, data };
    },

    async nextFollowUp(actor: StaffActor, patientId: number) {
      const programId = programOf(actor);
      if (!(await patientInProgram(db, programId, patientId))) throw AppError.notFound();
      return { data: await nextFollowUp(db, programId, patientId) };
    },
  };
}

export type NotesService = ReturnType<typeof createNotesService>;
