import { sql } from 'drizzle-orm';
import { bigint, check, customType, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/**
 * Program and enterprise logos (ADR 040): small pictures kept in the database beside their owner, read
 * through GET programs/{p}/image and GET enterprises/{e}/image. One per owner.
 */
export const logos = pgTable(
  'logos',
  {
    ownerType: text('owner_type').notNull(),
    ownerId: bigint('owner_id', { mode: 'number' }).notNull(),
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.ownerType, t.ownerId] }),
    check('logos_owner_type_check', sql`${t.ownerType} IN ('program', 'enterprise')`),
    check('logos_content_type_check', sql`${t.contentType} IN ('image/png', 'image/jpeg', 'image/webp')`),
    check('logos_size_check', sql`octet_length(${t.bytes}) <= 262144`),
  ],
);
