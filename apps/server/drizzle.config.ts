import { defineConfig } from 'drizzle-kit';

// Every module's tables, found by their file name: a new module's tables need no list edited.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/modules/*/*.tables.ts', './src/platform/*/*.tables.ts'],
  out: './src/db/migrations',
});
