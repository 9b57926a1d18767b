import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { admins } from '../identity/identity.tables';
import { patients } from '../patients/patients.tables';
import { programs } from '../tenancy/tenancy.tables';

/**
 * The order form templates CareDeck ships (order-forms.catalogue.ts), loaded at every start by the module's
 * `prepare`; a program offers the templates of its program type (ADR 044).
 */
export const orderFormTemplates = pgTable(
  'order_form_templates',
  {
    id: bigint('id', { mode: 'number' }).primaryKey(),
    code: text('code').notNull().unique(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    recipientKind: text('recipient_kind').notNull(),
    programTypes: text('program_types').array().notNull(),
    /** The fields, in order (contracts `orderFormField`). */
    fields: jsonb('fields').notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    check(
      'order_form_templates_recipient_check',
      sql`${t.recipientKind} IN ('prescriber', 'pharmacy', 'supplier')`,
    ),
  ],
);

/** A patient's order form: the template's fields with the values it was made with (a snapshot), and its PDF. */
export const orderForms = pgTable(
  'order_forms',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    templateId: bigint('template_id', { mode: 'number' })
      .notNull()
      .references(() => orderFormTemplates.id),
    templateName: text('template_name').notNull(),
    recipientKind: text('recipient_kind').notNull(),
    state: text('state').notNull().default('created'),
    /** [{ key, label, source, value }] as the form was made; never changed afterwards. */
    fields: jsonb('fields').notNull(),
    /** The rendered PDF in the file storage (null until rendered). */
    pdfKey: text('pdf_key'),
    pdfSize: integer('pdf_size'),
    pdfGeneratedAt: timestamp('pdf_generated_at', { withTimezone: true }),
    createdBy: bigint('created_by', { mode: 'number' })
      .notNull()
      .references(() => admins.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
  },
  (t) => [
    check('order_forms_state_check', sql`${t.state} IN ('created', 'sent', 'resent')`),
    check('order_forms_recipient_check', sql`${t.recipientKind} IN ('prescriber', 'pharmacy', 'supplier')`),
    index('order_forms_patient_idx').on(t.patientId, t.createdAt, t.id),
    index('order_forms_program_idx').on(t.programId, t.state),
  ],
);

/** Every send and resend of a form: who, when, to whom, how, the e-mail's delivery and the link's use. */
export const orderFormSends = pgTable(
  'order_form_sends',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orderFormId: bigint('order_form_id', { mode: 'number' })
      .notNull()
      .references(() => orderForms.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    channel: text('channel').notNull().default('email'),
    toAddress: text('to_address').notNull(),
    recipientName: text('recipient_name'),
    /** The queued e-mail (its row goes 30 days after delivery: the delivery then reads 'sent'). */
    emailOutboxId: bigint('email_outbox_id', { mode: 'number' }),
    sentBy: bigint('sent_by', { mode: 'number' })
      .notNull()
      .references(() => admins.id),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    linkExpiresAt: timestamp('link_expires_at', { withTimezone: true }).notNull(),
    downloads: integer('downloads').notNull().default(0),
    lastDownloadedAt: timestamp('last_downloaded_at', { withTimezone: true }),
  },
  (t) => [
    check('order_form_sends_kind_check', sql`${t.kind} IN ('send', 'resend')`),
    check('order_form_sends_channel_check', sql`${t.channel} IN ('email')`),
    index('order_form_sends_form_idx').on(t.orderFormId, t.id),
  ],
);
