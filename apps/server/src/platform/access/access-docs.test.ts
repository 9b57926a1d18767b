import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../test/harness';
import type { App } from '../http/types';
import { ACCESS_TABLE_BEGIN, renderAccessTable, withAccessTable } from './access-table';

/**
 * The declared access rules are the documentation (issue 28 item 1): docs/security.md carries the route →
 * access kind → roles table generated from the rules every registered route declares. This test fails when the
 * table is stale; `npm run docs:access` (UPDATE_ACCESS_DOCS=1) rewrites it.
 */
const DOC = fileURLToPath(new URL('../../../../../docs/security.md', import.meta.url));

let app: App;
beforeAll(async () => {
  ({ app } = await testApp());
});

describe('access table in docs/security.md', () => {
  it('is the table the declared rules give', () => {
    const doc = readFileSync(DOC, 'utf8');
    expect(doc).toContain(ACCESS_TABLE_BEGIN);
    const fresh = withAccessTable(doc, renderAccessTable(app.accessTable));
    if (process.env.UPDATE_ACCESS_DOCS === '1' && fresh !== doc) writeFileSync(DOC, fresh);
    else expect(doc, 'docs/security.md is stale: run `npm run docs:access`').toBe(fresh);
  });
});
