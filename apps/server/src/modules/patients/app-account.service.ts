import { createHash, randomInt } from 'node:crypto';
import { type AppPasswordBody, PATIENT_MESSAGES } from '@caredeck/contracts';
import type { StaffActor } from '../../platform/access/actor';
import { hashPassword } from '../../platform/auth/passwords';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { enqueueEmail } from '../../platform/outbox/outbox';
import { codeTarget, setAppPassword, storeCode } from './app-account.queries';
import { auditPatient } from './record.service';

const CODE_TTL_MINUTES = 30;
const RESEND_AFTER_SECONDS = 60;

type Result = { message: string; action: 'password' | 'code'; sent_to: string | null };

/** "n•••@example.com": enough for staff to confirm the address with the patient, not the address itself. */
function masked(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}•••@${domain}`;
}

/** The patient's own patient-app sign-in, managed by the care team (02 §4 "Password reset"). */
export function createAppAccountService(deps: { db: Database }) {
  const { db } = deps;

  async function sendCode(actor: StaffActor, patientId: number): Promise<Result> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    return db.transaction(async (tx) => {
      const target = await codeTarget(tx, patientId);
      if (!target) throw AppError.notFound();
      if (!target.email) throw AppError.validation({ email: [PATIENT_MESSAGES.noEmail] });
      if (target.seconds_since_code !== null && target.seconds_since_code < RESEND_AFTER_SECONDS)
        throw AppError.rateLimited(RESEND_AFTER_SECONDS - target.seconds_since_code);
      await storeCode(
        tx,
        patientId,
        createHash('sha256').update(`${patientId}:${code}`).digest('hex'),
        CODE_TTL_MINUTES,
      );
      await enqueueEmail(tx, {
        to: target.email,
        template: 'patient_app_code',
        subject: 'Your CareDeck app code',
        text: `Hello ${target.first_name},\n\nYour CareDeck app verification code is ${code}. It expires in ${CODE_TTL_MINUTES} minutes.\n\nIf you did not expect it, tell your care team.`,
      });
      await auditPatient(tx, actor, 'patient.app_code_sent', patientId);
      return { message: PATIENT_MESSAGES.codeSent, action: 'code' as const, sent_to: masked(target.email) };
    });
  }

  return {
    /** type '2' sets the given password; any other type resends a verification code. */
    async password(actor: StaffActor, input: { patientId: number; body: AppPasswordBody }): Promise<Result> {
      if (String(input.body.type) !== '2') return sendCode(actor, input.patientId);
      const hash = await hashPassword(input.body.password ?? '');
      await db.transaction(async (tx) => {
        await setAppPassword(tx, input.patientId, hash, actor.adminId);
        await auditPatient(tx, actor, 'patient.app_password_set', input.patientId);
      });
      return { message: PATIENT_MESSAGES.passwordSet, action: 'password', sent_to: null };
    },

    async resendCode(actor: StaffActor, input: { patientId: number }): Promise<Result> {
      return sendCode(actor, input.patientId);
    },
  };
}

export type AppAccountService = ReturnType<typeof createAppAccountService>;
