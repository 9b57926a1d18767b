import { randomInt } from 'node:crypto';
import { type CreateStaffInput, STAFF_MESSAGES, type StaffMember } from '@caredeck/contracts';
import { programAccess } from '../../platform/access/access.queries';
import type { StaffActor } from '../../platform/access/actor';
import { audit } from '../../platform/audit/audit';
import { hashPassword } from '../../platform/auth/passwords';
import type { Database } from '../../platform/db/client';
import { isUniqueViolation } from '../../platform/db/errors';
import { AppError } from '../../platform/http/errors';
import { enqueueEmail } from '../../platform/outbox/outbox';
import { findAdminByEmail } from '../identity/identity.queries';
import { administeredProgramIds, insertStaff, programName } from './staff.queries';

const ADMIN_ROLES = new Set(['admin', 'enterprise_admin']);

/** 16 characters from four classes (the password policy's three of four, always met), without look-alikes. */
export function temporaryPassword(): string {
  const sets = ['abcdefghjkmnpqrstuvwxyz', 'ABCDEFGHJKLMNPQRSTUVWXYZ', '23456789', '!#%+=?@'];
  const all = sets.join('');
  const chars = sets.map((set) => set[randomInt(set.length)]!);
  while (chars.length < 16) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

export function createStaffService(deps: { db: Database }) {
  const { db } = deps;

  /** The program a `POST users/admin` without a path program creates in: the body's, or the only one administered. */
  async function programFor(actor: StaffActor, programId: number | undefined): Promise<number> {
    if (programId !== undefined) {
      const program = await programAccess(db, actor.adminId, programId);
      if (!program) throw AppError.notFound();
      if (!program.roles.some((role) => ADMIN_ROLES.has(role))) throw AppError.forbidden();
      return program.id;
    }
    const administered = await administeredProgramIds(db, actor.adminId);
    if (administered.length === 0) throw AppError.forbidden();
    if (administered.length > 1) throw AppError.validation({ program_id: [STAFF_MESSAGES.programRequired] });
    return administered[0]!;
  }

  return {
    /**
     * Creates the account with a temporary password, grants the role in the program and e-mails the
     * invitation, in one transaction (the mail leaves through the outbox only if the account exists).
     */
    async create(
      actor: StaffActor,
      input: CreateStaffInput & { programId?: number },
    ): Promise<{ message: typeof STAFF_MESSAGES.created; data: StaffMember }> {
      const programId = actor.program?.id ?? (await programFor(actor, input.programId));
      const taken = { email: [STAFF_MESSAGES.emailTaken] };
      if (await findAdminByEmail(db, input.email)) throw AppError.validation(taken);
      const password = temporaryPassword();
      const passwordHash = await hashPassword(password);
      try {
        const member = await db.transaction(async (tx) => {
          const created = await insertStaff(tx, {
            email: input.email,
            givenName: input.given_name,
            familyName: input.family_name,
            title: input.title ?? null,
            phoneNumber: input.phone_number ?? null,
            passwordHash,
            programId,
            role: input.role,
          });
          await enqueueEmail(tx, {
            to: created.email,
            template: 'staff_invitation',
            subject: 'Your CareDeck account',
            text: `Hello ${created.given_name},\n\nAn administrator of ${await programName(tx, programId)} created a CareDeck account for you. Sign in with this e-mail address and the temporary password ${password} . You will choose your own password when you first sign in.\n\nIf you did not expect this message, tell your program administrator.`,
          });
          await audit(tx, {
            actorAdminId: actor.adminId,
            programId,
            action: 'staff.create',
            details: { staff_id: created.id, role: created.role },
            ip: actor.ip,
          });
          return created;
        });
        return { message: STAFF_MESSAGES.created, data: member };
      } catch (error) {
        // Two administrators adding the same address at once: the unique index decides.
        if (isUniqueViolation(error)) throw AppError.validation(taken);
        throw error;
      }
    },
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
