import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as contracts from '@caredeck/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../test/harness';
import type { App } from './types';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|tsx)$/.test(entry) && !/\.test\.(ts|tsx)$/.test(entry)) out.push(full);
  }
  return out;
}

/** Every route contract exported by @caredeck/contracts, as `METHOD path`. */
function contractRoutes(): string[] {
  const routes: string[] = [];
  for (const [name, group] of Object.entries(contracts)) {
    if (!name.endsWith('Contract') || typeof group !== 'object' || group === null) continue;
    for (const route of Object.values(group as Record<string, { method: string; path: string }>))
      routes.push(`${route.method} ${route.path}`);
  }
  return routes;
}

let app: App;
beforeAll(async () => {
  ({ app } = await testApp());
});

describe('one place per route (issue 6 §1)', () => {
  it('writes no API path outside packages/contracts: server and console source hold none', () => {
    const offenders: string[] = [];
    for (const root of ['apps/server/src', 'apps/web/src']) {
      for (const file of sourceFiles(path.join(REPO, root))) {
        const lines = readFileSync(file, 'utf8').split('\n');
        lines.forEach((line, i) => {
          if (/['"`]\/api\//.test(line))
            offenders.push(`${path.relative(REPO, file)}:${i + 1}: ${line.trim()}`);
        });
      }
    }
    expect(offenders).toEqual([]);
  });

  it('registers every API route of the server from a contract, and every contract is served', () => {
    const defined = new Set(contractRoutes());
    const served = app.accessTable
      // FHIR's routes are FHIR's: their contract is the CapabilityStatement (ADR 073).
      .filter(
        (r) =>
          r.method !== 'HEAD' &&
          !r.url.startsWith(contracts.API_PREFIXES.docs) &&
          !r.url.startsWith(contracts.FHIR_PREFIX) &&
          r.url !== '/*',
      )
      .map((r) => `${r.method} ${r.url}`);
    expect(served.filter((r) => !defined.has(r))).toEqual([]);
    expect([...defined].filter((r) => !served.includes(r))).toEqual([]);
  });

  it('answers with the contract’s success status', async () => {
    const signOut = await app.inject({ method: 'POST', url: contracts.authContract.signOut.path });
    expect(signOut.statusCode).toBe(204);
    expect(signOut.body).toBe('');
  });

  it('builds URLs from the path template, encoding parameters and leaving out blank query values', () => {
    expect(
      contracts.routeUrl(
        contracts.patientsContract.list,
        { programId: 7 },
        { name: 'a b&c', page: 2, sort_by: '' },
      ),
    ).toBe('/api/v1/programs/7/users?name=a%20b%26c&page=2');
    expect(() => contracts.routeUrl(contracts.patientsContract.list, {})).toThrow(/programId/);
  });
});
