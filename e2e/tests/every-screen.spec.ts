import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from './fixtures';
import { apiAccessToken, apiSession, openAs } from './helpers';

// Every screen of the route table opens without a crash, an error screen or a script error in the built
// console, as it is served (lazy chunks, split styles, one language loaded): component tests do not bundle,
// so a chunk that loads in the wrong order or a dropped side effect is only seen here (ADR 048).
const USER = 'enterprise@caredeck.demo';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The staff screens of the console's route table, read from the table (route-table.ts): a new screen is opened
 * here without being listed. */
function staffScreens(): string[] {
  const script = fileURLToPath(new URL('./route-table.ts', import.meta.url));
  const out = execFileSync(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out) as string[];
}

/** The tabs of the patient record that load their own code (the record's first tab is its path). */
const RECORD_TABS = ['adherence', 'readings', 'devices'];

/** A route's path with its ids: a patient, a cohort and a pipeline of the demo data; a new patient's form. */
function withIds(path: string, ids: { patient: number; cohort: number; pipeline: number }): string {
  // The add-patient forms take `new` for the patient they create.
  const patient = path.startsWith('/add-patient/') ? 'new' : String(ids.patient);
  return path
    .replace(/^(\/group\/):(id|groupId)/, `$1${ids.cohort}`)
    .replace(/:(pipeline_id|pipelineId)/, String(ids.pipeline))
    .replace(/:(patientId|id)/, patient);
}

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  page.on('console', (message) => {
    // A refused request is logged by the browser as a console error; the screens' own errors are what count.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(`${page.url()}: ${message.text().slice(0, 300)}`);
  });
  return errors;
}

test('every screen opens without an error in the built console', async ({ page, request }) => {
  test.setTimeout(240_000);
  const token = await apiAccessToken(request, USER);
  const res = await request.get('/api/v1/devices?kind=wearable', {
    headers: { authorization: `Bearer ${token}` },
  });
  const { data } = (await res.json()) as { data: { patient: { id: number } | null }[] };
  const patient = data.find((device) => device.patient)?.patient?.id;
  expect(patient, 'a demo patient with a wearable').toBeDefined();
  const { headers, programId } = await apiSession(request, USER);
  const first = async (what: string) => {
    const list = await request.get(`/api/v1/programs/${programId}/${what}`, { headers });
    expect(list.status(), await list.text()).toBe(200);
    const id = ((await list.json()) as { data: { id: number }[] }).data[0]?.id;
    expect(id, `a demo ${what} entry`).toBeDefined();
    return id!;
  };
  const ids = { patient: patient!, cohort: await first('groups'), pipeline: await first('pipelines') };
  const screens = staffScreens().map((path) => withIds(path, ids));
  screens.push(...RECORD_TABS.map((tab) => `/patient/${patient}?tab=${tab}`));
  // The table is read, not empty: the patients list and a patient's record are among its screens.
  expect(screens).toEqual(expect.arrayContaining(['/patients', `/patient/${patient}`]));

  const errors = watchErrors(page);
  await openAs(page, USER, '/patients');
  for (const path of screens) {
    await page.goto(path);
    await expect(page.getByTestId('user-menu'), path).toBeVisible();
    // The page has drawn (no loader left in the main area) and is not the error screen.
    await expect(page.getByRole('status', { name: /^Loading/ }), path).toHaveCount(0, { timeout: 15_000 });
    await expect(page.getByRole('heading', { name: 'Something went wrong' }), path).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'This part of CareDeck did not load' }), path).toHaveCount(
      0,
    );
  }
  expect(errors).toEqual([]);
});
