import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect, type Page } from '@playwright/test';

/**
 * This worker's slot (0 … workers − 1): each Playwright worker runs its own console (fixtures.ts) on ports and
 * a mail folder of its own. Ports: E2E_PORT (default 18080) and E2E_MQTT_PORT (default 18884), plus the slot.
 */
export const SLOT = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
export const BASE_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 18_080) + SLOT}`;
/** This worker's console's embedded MQTT broker (the device simulator connects to it). */
export const MQTT_PORT = Number(process.env.E2E_MQTT_PORT ?? 18_884) + SLOT;
export const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? 'CareDeck-demo-2026';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'apps/devices/src/cli.ts');

/** The device simulator (apps/devices) against the test console's broker, as a child process. */
export function simulate(args: string[]): ChildProcess {
  return spawn(
    process.execPath,
    ['--import', 'tsx', CLI, '--url', `mqtt://127.0.0.1:${MQTT_PORT}`, ...args],
    {
      cwd: ROOT,
      env: { ...process.env, DEMO_PASSWORD },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

/** Runs the simulator to its end; resolves with its output. */
export function simulateOnce(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = simulate(args);
    let out = '';
    child.stdout?.on('data', (c) => {
      out += String(c);
    });
    child.stderr?.on('data', (c) => {
      out += String(c);
    });
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`simulator exited ${code}: ${out}`)),
    );
  });
}

/** Fills the sign-in form and, when the server asks for it, accepts the HIPAA consent. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const accept = page.getByRole('button', { name: 'Accept' });
  // The console's user menu (in any language): the user had consented before and is on the wanted page.
  const shell = page.getByTestId('user-menu');
  await expect(accept.or(shell)).toBeVisible();
  if (await accept.isVisible()) await accept.click();
}

/**
 * Opens `path` signed in as `email`, the session made through the API (the browser context's cookie jar gets
 * the refresh cookie, as after the form): the page loads once, already signed in. The sign-in journeys use
 * the form (signIn); every other journey starts here.
 */
export async function openAs(
  page: Page,
  email: string,
  path: string,
  password = DEMO_PASSWORD,
): Promise<void> {
  // page.request shares the page's cookie jar: the sign-in (and the consent) leave the refresh cookie there.
  await apiAccessToken(page.request, email, password);
  await page.goto(path);
  await expect(page.getByTestId('user-menu')).toBeVisible();
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
}

// ---------------------------------------------------------------------------------------------------------
// E-mailed codes. Without SMTP_URL the server writes each e-mail to its own file, DATA_DIR/mail/<name>.json
// (names sort in the order written); scripts/e2e-server.mjs links e2e/test-results/mail-<slot> to that directory.

const MAIL_DIR = fileURLToPath(new URL(`../test-results/mail-${SLOT}`, import.meta.url));
const CODE_IN_MAIL = /code is (\d{6})/;

export type SentMail = { to: string; subject: string; template: string; text: string };

/** Every e-mail the server has written so far, oldest first (none before the first). */
export function sentMails(): SentMail[] {
  let names: string[];
  try {
    names = readdirSync(MAIL_DIR).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names.sort().map((n) => JSON.parse(readFileSync(path.join(MAIL_DIR, n), 'utf8')) as SentMail);
}

/** Every code e-mailed to `email` so far, oldest first. */
export function sentCodes(email: string): string[] {
  const address = email.trim().toLowerCase();
  const codes: string[] = [];
  for (const mail of sentMails()) {
    if (mail.to !== address) continue;
    const code = CODE_IN_MAIL.exec(mail.text)?.[1];
    if (code) codes.push(code);
  }
  return codes;
}

/** Runs `action` (which makes the server send a code to `email`) and returns the code of the new e-mail. */
export async function nextCode(email: string, action: () => Promise<unknown>): Promise<string> {
  const before = sentCodes(email).length;
  await action();
  // The outbox worker delivers every ~2 s.
  await expect
    .poll(() => sentCodes(email).length, { message: `a code e-mailed to ${email}`, timeout: 20_000 })
    .toBeGreaterThan(before);
  return sentCodes(email).at(-1)!;
}

// ---------------------------------------------------------------------------------------------------------
// Accounts and API calls.

/** A strong password (10+ characters, three character classes) for the accounts the tests create. */
export const NEW_PASSWORD = 'Fresh-Start-2026';

/** An address nobody has used yet on this server. */
export function uniqueEmail(label: string): string {
  return `e2e-${label}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}@example.com`;
}

/** Registers and confirms an account through the API (fresh, no programs, no HIPAA consent yet). */
export async function registerConfirmedUser(
  request: APIRequestContext,
  label: string,
  password = NEW_PASSWORD,
): Promise<string> {
  const email = uniqueEmail(label);
  const code = await nextCode(email, async () => {
    const res = await request.post('/api/auth/register', {
      data: { given_name: 'Test', family_name: label, email, password, password_confirmation: password },
    });
    expect(res.status(), await res.text()).toBe(200);
  });
  const res = await request.post('/api/auth/confirm-registration', { data: { email, code } });
  expect(res.status(), await res.text()).toBe(200);
  return email;
}

/** A full staff access token through the API, giving HIPAA consent when the server asks for it. */
export async function apiAccessToken(
  request: APIRequestContext,
  email: string,
  password = DEMO_PASSWORD,
): Promise<string> {
  const res = await request.post('/api/auth/sign-in', { data: { email, password } });
  expect(res.status(), await res.text()).toBe(200);
  const result = (await res.json()) as { status: string; access_token?: string };
  if (result.status === 'hipaa') {
    const consent = await request.put('/api/v1/user/consent/hipaa', {
      headers: { authorization: `Bearer ${result.access_token}` },
    });
    expect(consent.status(), await consent.text()).toBe(200);
    return ((await consent.json()) as { access_token: string }).access_token;
  }
  expect(result.status).toBe('signedIn');
  return result.access_token!;
}

// ---------------------------------------------------------------------------------------------------------
// Accessibility: axe-core in the page, WCAG 2.0, 2.1 and 2.2 A and AA rules.

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown[]; html: string; failureSummary?: string }[];
}

function describeViolation(v: AxeViolation): string {
  const nodes = v.nodes.map((n) => {
    const summary = (n.failureSummary ?? '').split('\n').slice(0, 2).join(' ');
    return `    - ${n.target.map(String).join(' ')}\n      ${n.html.slice(0, 160)}\n      ${summary}`;
  });
  return `  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes.join('\n')}`;
}

/**
 * Runs axe on the page as it is now (or on the part `scope` selects: an open popover, whose page behind is
 * checked on its own, and whose controls it half covers depending on how long its list is). Every serious or
 * critical violation is reported with its selectors; the check is soft, so one test can check several pages
 * and report them all.
 */
export async function expectNoSeriousA11yViolations(page: Page, what: string, scope?: string): Promise<void> {
  // Colours are read as they settle: a toast or dialog fading in is measured half transparent otherwise.
  // (Spinners and skeletons animate without end: only transitions and finite animations are awaited.)
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
      ),
  );
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SCRIPT });
  const violations = await page.evaluate(async (selector) => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is injected as a global script.
    const axe = (window as any).axe;
    const result = await axe.run(selector ? { include: [[selector]] } : document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      // WCAG 2.5.3 (label in name): axe still calls it experimental, so it must be asked for.
      rules: { 'label-content-name-mismatch': { enabled: true } },
    });
    return result.violations as AxeViolation[];
  }, scope);
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious.map(describeViolation).join('\n');
  expect.soft(serious.length, `serious or critical accessibility violations on ${what}:\n${report}`).toBe(0);
}

// ---------------------------------------------------------------------------------------------------------
// SMS. The server runs the log transport (texts count as delivered, read in the console); a simulated
// inbound text is a webhook signed with the secret the test server is given (fixtures.ts).

export const SMS_WEBHOOK_SECRET = 'caredeck-e2e-sms-webhook-secret';

/** Posts an inbound text as the SMS provider would: signed HMAC-SHA256 of `timestamp.body`. */
export async function simulateInboundSms(
  request: APIRequestContext,
  text: { from: string; body: string },
): Promise<void> {
  const raw = JSON.stringify({ id: `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}`, ...text });
  const at = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', SMS_WEBHOOK_SECRET).update(`${at}.${raw}`).digest('hex');
  const res = await request.post('/api/v1/webhooks/sms', {
    data: raw,
    headers: {
      'content-type': 'application/json',
      'x-caredeck-timestamp': at,
      'x-caredeck-signature': signature,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** A staff member's API session for setting up a journey: bearer headers and the first program they work in. */
export async function apiSession(
  request: APIRequestContext,
  email: string,
): Promise<{ headers: { authorization: string }; programId: number }> {
  const headers = { authorization: `Bearer ${await apiAccessToken(request, email)}` };
  const me = (await (await request.get('/api/v1/user', { headers })).json()) as {
    programs: { id: number }[];
  };
  return { headers, programId: me.programs[0]!.id };
}
