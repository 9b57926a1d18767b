import type { GuestInvite } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';
import { isoUtc } from '../../platform/db/time';

const COLUMNS = sql`g.id, g.conversation_id, g.guest_name, g.channel, g.sent_to,
  coalesce(a.given_name || ' ' || a.family_name, '') AS invited_by,
  ${isoUtc(sql`g.created_at`)} AS created_at, ${isoUtc(sql`g.expires_at`)} AS expires_at,
  ${isoUtc(sql`g.revoked_at`)} AS revoked_at, ${isoUtc(sql`g.last_used_at`)} AS last_used_at`;

function select(where: SQL): SQL {
  return sql`SELECT ${COLUMNS} FROM guest_invites g LEFT JOIN admins a ON a.id = g.invited_by WHERE ${where} ORDER BY g.id DESC`;
}

export async function insertInvite(
  db: Queryable,
  i: {
    conversationId: number;
    patientId: number;
    guestName: string;
    channel: string;
    sentTo: string;
    invitedBy: number;
    hours: number;
  },
): Promise<GuestInvite> {
  const res = await db.execute<{ id: number }>(sql`
    INSERT INTO guest_invites (conversation_id, patient_id, guest_name, channel, sent_to, invited_by, expires_at)
    VALUES (${i.conversationId}, ${i.patientId}, ${i.guestName}, ${i.channel}, ${i.sentTo}, ${i.invitedBy},
      now() + make_interval(hours => ${i.hours}))
    RETURNING id`);
  return (await inviteById(db, Number(res.rows[0]!.id)))!;
}

export async function inviteById(db: Queryable, id: number): Promise<GuestInvite | null> {
  const res = await db.execute<GuestInvite>(select(sql`g.id = ${id}`));
  return res.rows[0] ?? null;
}

export async function invitesOf(db: Queryable, conversationId: number): Promise<GuestInvite[]> {
  return (await db.execute<GuestInvite>(select(sql`g.conversation_id = ${conversationId}`))).rows;
}

export async function revokeInvite(
  db: Queryable,
  conversationId: number,
  id: number,
  by: number,
): Promise<boolean> {
  const res = await db.execute(sql`
    UPDATE guest_invites SET revoked_at = coalesce(revoked_at, now()), revoked_by = coalesce(revoked_by, ${by})
    WHERE id = ${id} AND conversation_id = ${conversationId}`);
  return (res.rowCount ?? 0) > 0;
}

/** A live invite (not revoked, not expired) with what a guest session needs; touches its last use. */
export async function liveInvite(db: Queryable, id: number) {
  const res = await db.execute<{
    id: number;
    conversation_id: number;
    program_id: number;
    conversation_name: string;
    guest_name: string;
    invited_by: number | null;
    patient_id: number;
    last_read_id: number;
    expires_at: string;
  }>(sql`
    UPDATE guest_invites g SET last_used_at = now()
    FROM conversations c
    WHERE g.id = ${id} AND c.id = g.conversation_id AND g.revoked_at IS NULL AND g.expires_at > now()
    RETURNING g.id, g.conversation_id, c.program_id, c.name AS conversation_name, g.guest_name, g.invited_by,
      g.patient_id, g.last_read_id, ${isoUtc(sql`g.expires_at`)} AS expires_at`);
  const row = res.rows[0];
  return row
    ? {
        ...row,
        id: Number(row.id),
        conversation_id: Number(row.conversation_id),
        program_id: Number(row.program_id),
        patient_id: Number(row.patient_id),
        invited_by: row.invited_by === null ? null : Number(row.invited_by),
        last_read_id: Number(row.last_read_id),
      }
    : null;
}

export async function markGuestRead(db: Queryable, inviteId: number, conversationId: number) {
  await db.execute(sql`
    UPDATE guest_invites SET last_read_id = GREATEST(last_read_id,
      coalesce((SELECT max(id) FROM messenger_messages WHERE conversation_id = ${conversationId} AND parent_id IS NULL), 0))
    WHERE id = ${inviteId}`);
}

/** The patient an invitation goes to, in the program. */
export async function inviteePatient(db: Queryable, patientId: number, programId: number) {
  const res = await db.execute<{
    first_name: string;
    last_name: string;
    phone_number: string | null;
    email: string | null;
  }>(sql`
    SELECT first_name, last_name, phone_number, email FROM patients WHERE id = ${patientId} AND program_id = ${programId}`);
  return res.rows[0] ?? null;
}
