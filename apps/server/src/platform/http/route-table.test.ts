import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as contracts from '@caredeck/contracts';
import { renderRouteTable, withRouteTable } from '@caredeck/contracts';
import { describe, expect, it } from 'vitest';

/**
 * docs/api.md lists every route (issue 29 §6): its route table is generated from the contracts, and this
 * test fails when it is stale; `npm run docs:api` (UPDATE_API_DOCS=1) rewrites it.
 */
const DOC = fileURLToPath(new URL('../../../../../docs/api.md', import.meta.url));

describe('route table in docs/api.md', () => {
  it('is the table the contracts give', () => {
    const doc = readFileSync(DOC, 'utf8');
    const fresh = withRouteTable(doc, renderRouteTable(contracts));
    if (process.env.UPDATE_API_DOCS === '1' && fresh !== doc) writeFileSync(DOC, fresh);
    else expect(doc, 'docs/api.md is stale: run `npm run docs:api`').toBe(fresh);
  });
});
