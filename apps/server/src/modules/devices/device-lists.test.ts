import { authContract, devicesContract as c, routeUrl } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';

let app: App;
let db: Database;
const token = { controller: '', nurse: '' };
let programId = 0;
const FLEET = 1_234;

type Page = {
  data: { serial: string; connected: boolean }[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
};
const get = async (as: string, target: string) => {
  const res = await app.inject({ method: 'GET', url: target, headers: bearer(as) });
  expect(res.statusCode).toBe(200);
  return res.json() as Page;
};
const serial = (n: number) => `FLT-${String(n).padStart(5, '0')}`;

beforeAll(async () => {
  ({ app, db } = await testApp());
  const g = given(db);
  programId = (await g.program()).id;
  const nurse = await g.admin({
    hipaaConsented: true,
    programRoles: [{ programId, role: 'care_coordinator' }],
  });
  token.nurse = (await signIn(app, nurse.email, FACTORY_PASSWORD)).token;
  const controller = await g.controllerAccount();
  const res = await app.inject({
    method: 'POST',
    url: authContract.controllerSignIn.path,
    payload: { email: controller.email, password: FACTORY_PASSWORD },
  });
  token.controller = res.json().access_token;
  // More dispensers than the old silent cap of 1,000; every third one connected.
  await db.execute(sql`
    INSERT INTO devices (serial, vendor, kind, dispenser_type, program_id, connected)
    SELECT 'FLT-' || lpad(i::text, 5, '0'), 'medesto', 'dispenser', 1, ${programId}, i % 3 = 0
    FROM generate_series(1, ${FLEET}) i`);
});

describe('device lists at any size (issue 27)', () => {
  it('pages the fleet by serial with a total; the last page holds the last serials', async () => {
    const first = await get(token.controller, routeUrl(c.list, undefined, { kind: 'dispenser' }));
    expect(first).toMatchObject({ current_page: 1, per_page: 100, total: FLEET, last_page: 13 });
    expect(first.data[0]!.serial).toBe(serial(1));
    const last = await get(token.controller, routeUrl(c.list, undefined, { kind: 'dispenser', page: '13' }));
    expect(last.data.map((d) => d.serial)).toEqual(
      Array.from({ length: 34 }, (_, i) => serial(FLEET - 33 + i)),
    );
    // Older clients' name for the list answers the same pages.
    const legacy = await get(
      token.controller,
      routeUrl(c.deviceList, undefined, { kind: 'dispenser', page: '13' }),
    );
    expect(legacy).toEqual(last);
    const past = await get(token.controller, routeUrl(c.list, undefined, { kind: 'dispenser', page: '14' }));
    expect(past).toMatchObject({ data: [], total: FLEET, last_page: 13 });
  });

  it('filters by part of the serial and by connection on the server, with the filtered total', async () => {
    const found = await get(token.controller, routeUrl(c.list, undefined, { serial: 'flt-0123' }));
    expect(found.data.map((d) => d.serial)).toEqual([
      serial(1230),
      serial(1231),
      serial(1232),
      serial(1233),
      serial(1234),
    ]);
    expect(found.total).toBe(5);
    const connected = await get(
      token.controller,
      routeUrl(c.list, undefined, { kind: 'dispenser', connected: 'true', per_page: '50', page: '9' }),
    );
    expect(connected.total).toBe(Math.floor(FLEET / 3));
    expect(connected.data.every((d) => d.connected)).toBe(true);
    expect(connected.data.at(-1)!.serial).toBe(serial(1233));
  });

  it('pages a staff member’s list the same way and refuses a bad page with 422', async () => {
    const staff = await get(token.nurse, routeUrl(c.list, undefined, { per_page: '1000' }));
    expect(staff).toMatchObject({ per_page: 100, total: FLEET, last_page: 13 });
    const bad = await app.inject({
      method: 'GET',
      url: routeUrl(c.list, undefined, { page: '0' }),
      headers: bearer(token.nurse),
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.page).toBeDefined();
  });
});
