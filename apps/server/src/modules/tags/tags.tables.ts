import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { admins } from '../identity/identity.tables';
import { patients } from '../patients/patients.tables';
import { programs } from '../tenancy/tenancy.tables';

const programRef = () =>
  bigint('program_id', { mode: 'number' })
    .notNull()
    .references(() => programs.id, { onDelete: 'cascade' });

/** A folder of a program's tags (02 §3 Tag and tag folder; ADR 038). */
export const tagFolders = pgTable(
  'tag_folders',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: programRef(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tag_folders_name_key').on(t.programId, sql`lower(${t.name})`)],
);

/** A program's tag; patients carry tags (`patient_tags`). */
export const tags = pgTable(
  'tags',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: programRef(),
    folderId: bigint('folder_id', { mode: 'number' }).references(() => tagFolders.id, {
      onDelete: 'set null',
    }),
    name: text('name').notNull(),
    color: text('color'),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('tags_name_key').on(t.programId, sql`lower(${t.name})`),
    index('tags_folder_idx').on(t.folderId),
  ],
);

export const patientTags = pgTable(
  'patient_tags',
  {
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    tagId: bigint('tag_id', { mode: 'number' })
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    addedBy: bigint('added_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.patientId, t.tagId] }), index('patient_tags_tag_idx').on(t.tagId)],
);

/** A program's care protocol (02 §3 Protocol: fields not shown; ADR 038); every update is a new version. */
export const protocols = pgTable(
  'protocols',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: programRef(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    steps: jsonb('steps').notNull().default(sql`'[]'::jsonb`),
    active: boolean('active').notNull().default(true),
    version: integer('version').notNull().default(1),
    updatedBy: bigint('updated_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('protocols_name_key').on(t.programId, sql`lower(${t.name})`)],
);

/** Each earlier version of a protocol, as it was. */
export const protocolVersions = pgTable(
  'protocol_versions',
  {
    protocolId: bigint('protocol_id', { mode: 'number' })
      .notNull()
      .references(() => protocols.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    body: jsonb('body').notNull(),
    savedBy: bigint('saved_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    savedAt: timestamp('saved_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.protocolId, t.version] })],
);
