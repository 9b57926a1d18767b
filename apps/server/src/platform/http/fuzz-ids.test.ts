import type { RouteContract } from '@caredeck/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { auditRows, demoWalk, expectRefusal, pathOf, routes, skipped } from './fuzz.fixture';
import type { App } from './types';

// Issue 28: hostile ids in paths. Every path parameter of every route, one at a time while the others name real
// objects of the demo data, takes values no id or date should be: zero, negative, fractions, exponents, numbers
// past PostgreSQL's integer and bigint, text, controls, SQL. Every answer is a 4xx in the contract's error shape
// (a 404 for what names nothing, a 422 for what is no id at all), never a 5xx, and nothing is stored.

let app: App;
let db: Database;
let token = '';
let ids: Record<string, string> = {};

const HOSTILE_IDS = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '01',
  '+1',
  ' 1',
  '0x10',
  '2147483648', // one past PostgreSQL's integer
  '9007199254740993', // past JavaScript's safe integers
  '9223372036854775808', // one past PostgreSQL's bigint
  '99999999999999999999999999',
  'abc',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '2026-02-30',
  '1;DROP TABLE patients',
  "1' OR '1'='1",
  '%00',
  '%E2%80%8B1', // a zero-width space before the digit
  '%C0%AE', // an invalid UTF-8 sequence
  'x'.repeat(300),
];

/** The route's path parameters, in order. */
const paramsOf = (c: RouteContract): string[] =>
  [...c.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);

/** The route's path with every parameter real except `param`, which takes `value` as sent on the wire. */
function pathWithHostile(c: RouteContract, param: string, value: string): string {
  const marker = '__hostile__';
  const withMarker = { ...c, path: c.path.replace(`:${param}`, marker) } as RouteContract;
  return pathOf(withMarker, ids).replace(marker, value);
}

beforeAll(async () => {
  ({ app, db, ids, token } = await demoWalk());
});

/**
 * Path parameters where some of these values name something by design: the answer may be a 2xx, never a 5xx.
 */
const ACCEPTED: Record<string, { values: readonly string[] | 'any'; why: string }> = {
  'patientRecordContract.checkExists:patientId': { values: ['0'], why: '0 is a patient still being entered' },
  'reportsContract.generatePatientReport:userId': {
    values: ['null'],
    why: 'null is the whole program (02 §7)',
  },
  'reportsContract.patientReports:userId': { values: ['null'], why: 'null is the whole program (02 §7)' },
  'smsContract.tempHistory:phone': { values: 'any', why: 'a number that sent no text has an empty history' },
};

/** Always tried on every parameter, then a rotating share of the rest (every value meets many routes). */
const ALWAYS = ['0', '2147483648', '9223372036854775808', 'abc', '2026-02-30', '%00'];
const ROTATING = HOSTILE_IDS.filter((v) => !ALWAYS.includes(v));
const valuesFor = (turn: number) => [
  ...ALWAYS,
  ...[0, 1, 2].map((k) => ROTATING[(turn * 3 + k) % ROTATING.length]!),
];

/** Sends one hostile id; answers what is wrong with the answer, or null. */
async function probe(name: string, contract: RouteContract, param: string, value: string) {
  const accepted = ACCEPTED[`${name}:${param}`];
  const before = await auditRows(db);
  const url = pathWithHostile(contract, param, value);
  const res = await app.inject({
    method: contract.method,
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(contract.method === 'GET' || contract.method === 'DELETE' ? {} : { payload: '{}' }),
  });
  const where = `${name} ${contract.method} ${url.slice(0, 160)}: ${res.statusCode} ${res.body.slice(0, 160)}`;
  if (accepted && (accepted.values === 'any' || accepted.values.includes(value)))
    return res.statusCode >= 500 ? where : null;
  if (res.statusCode < 400 || res.statusCode >= 500) return where;
  if ((await auditRows(db)) !== before) return `${where} (wrote an audit row)`;
  expectRefusal(res, where);
  return null;
}

describe('fuzz of the ids in every route’s path (issue 28)', () => {
  const withParams = routes.filter(({ contract }) => !skipped(contract) && paramsOf(contract).length > 0);

  it('walks every route with a path parameter (a route added later is walked without editing this test)', () => {
    expect(withParams.length).toBeGreaterThan(250);
  });

  it('answers a hostile id in any path parameter with a 4xx in the contract shape, never a 5xx, storing nothing', async () => {
    const failures: string[] = [];
    let turn = 0;
    for (const { name, contract } of withParams)
      for (const param of paramsOf(contract))
        for (const value of valuesFor(turn++)) {
          const failure = await probe(name, contract, param, value);
          if (failure) failures.push(failure);
        }
    // Every failure at once: one run names the whole class.
    expect(failures).toEqual([]);
  }, 240_000);
});
