import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { admins } from '../identity/identity.tables';
import { programs } from '../tenancy/tenancy.tables';

/** A category of a program's content library (02 §7 "Content"; ADR 033). */
export const contentCategories = pgTable(
  'content_categories',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('content_categories_name_key').on(t.programId, sql`lower(${t.name})`)],
);

/** A piece of content (a text, optionally a link) in a category, shared by the program's staff. */
export const contentItems = pgTable(
  'content_items',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    categoryId: bigint('category_id', { mode: 'number' })
      .notNull()
      .references(() => contentCategories.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    url: text('url'),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('content_items_category_idx').on(t.categoryId, t.id)],
);

/** One staff member's folder of text-message templates in a program ("users/content"): private to them. */
export const contentFolders = pgTable(
  'content_folders',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('content_folders_name_key').on(t.programId, t.ownerId, sql`lower(${t.name})`)],
);

/** A text-message template in a folder; `question` ones are offered as SMS questions. */
export const textMessageTemplates = pgTable(
  'text_message_templates',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    folderId: bigint('folder_id', { mode: 'number' })
      .notNull()
      .references(() => contentFolders.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    body: text('body').notNull(),
    question: boolean('question').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('text_message_templates_folder_idx').on(t.folderId, t.id)],
);
