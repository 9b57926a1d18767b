/**
 * The device simulator: `npm run simulate -- --patients N --days D [--live]`.
 *
 * Connects one simulated dispenser per demo patient (serials CD-000001 … of the demo seed, secrets derived
 * from the demo password) to the console's MQTT broker and:
 * - with `--days D`, replays D days of doses as the patient's behaviour profile would have taken them
 *   (adherent, forgetful, double-dosing, offline), as a device catching up after being offline does;
 * - with `--dose-now`, reports one dose taken now on each device;
 * - with `--reading systolic=185,diastolic=110`, reports one measurement taken now on each device (a BP
 *   cuff `BP-…` or pulse oximeter `OX-…` of the demo seed, named with --serials);
 * - with `--live`, stays connected: doses at their times (08:00 and 20:00 in `--zone`), a heartbeat every
 *   minute, and replies to every command the console sends (type 1 JSON-RPC, type 2 command and argument).
 *
 * Every device reports its presence on `devices/{serial}/status` (online after connecting, offline on
 * Ctrl+C, its Last Will when killed), so /controller shows it connected behind an external broker too.
 *
 * Options: --url (default mqtt://127.0.0.1:$MQTT_PORT or 1884), --first-patient (default 1), --serials
 * (a comma-separated list instead of --patients), --regimen (the regimen id a --dose-now dose is for;
 * without it the device's own regimen), --zone, --password (the demo password; default $DEMO_PASSWORD or
 * the published one).
 */
import { parseArgs } from 'node:util';
import { expandSchedule, type ScheduleRegimen } from '@caredeck/domain';
import { profileFor, seededRandom, simulateDoses } from './behaviour';
import { connectDevice, demoDeviceSecret, type SimulatedDevice, seqOf } from './device';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    patients: { type: 'string', default: '1' },
    'first-patient': { type: 'string', default: '1' },
    days: { type: 'string', default: '0' },
    live: { type: 'boolean', default: false },
    'dose-now': { type: 'boolean', default: false },
    zone: { type: 'string', default: 'America/New_York' },
    password: { type: 'string' },
    serials: { type: 'string' },
    regimen: { type: 'string' },
    reading: { type: 'string' },
  },
});

const url = values.url ?? `mqtt://127.0.0.1:${process.env.MQTT_PORT ?? '1884'}`;
const password = values.password ?? process.env.DEMO_PASSWORD ?? 'CareDeck-demo-2026';
const count = Math.max(1, Math.min(10_000, Number(values.patients) || 1));
const first = Math.max(1, Number(values['first-patient']) || 1);
const days = Math.max(0, Math.min(365, Number(values.days) || 0));
const zone = values.zone;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);

function schedule(now: number): ScheduleRegimen {
  return {
    id: 0,
    repeat: 'daily',
    interval: 1,
    times: ['08:00', '20:00'],
    timeCascade: false,
    lockoutMinutes: 180,
    unlockBeforeMinutes: 60,
    scheduledAt: now - 400 * DAY,
    endAt: null,
    multiPod: false,
    num: 1,
  };
}

async function main() {
  const devices: SimulatedDevice[] = [];
  const serials =
    values.serials
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? Array.from({ length: count }, (_, i) => `CD-${String(first + i).padStart(6, '0')}`);
  for (const serial of serials) {
    const device = await connectDevice({
      url,
      serial,
      secret: demoDeviceSecret(serial, password),
      onCommand: (command, reply) =>
        log(`${serial} command ${JSON.stringify(command)} → reply ${JSON.stringify(reply)}`),
    });
    devices.push(device);
    log(`${serial} connected to ${url}`);
  }

  const now = Date.now();
  if (days > 0) {
    let sent = 0;
    await Promise.all(
      devices.map(async (device, i) => {
        const doses = simulateDoses({
          regimen: schedule(now),
          zone,
          from: now - days * DAY,
          to: now,
          now,
          profile: profileFor(first + i),
          random: seededRandom(first + i),
        });
        for (const [k, d] of doses.entries()) {
          await device.publish({
            seq: seqOf(d.at, k),
            type: d.kind === 'taken' ? 'dose_taken' : 'dose_skipped',
            at: new Date(d.at).toISOString(),
          });
          sent++;
        }
      }),
    );
    log(`replayed ${sent} dose events of ${days} days (each acknowledged after it was stored)`);
  }

  if (values['dose-now']) {
    await Promise.all(
      devices.map(async (device) => {
        const at = Date.now();
        const regimen = values.regimen ? { regimen_id: Number(values.regimen) } : {};
        await device.publish({
          seq: seqOf(at),
          type: 'dose_taken',
          at: new Date(at).toISOString(),
          slot: 1,
          ...regimen,
        });
        log(`${device.serial} dose_taken acknowledged`);
      }),
    );
  }

  if (values.reading) {
    const measured = Object.fromEntries(
      values.reading.split(',').map((pair) => {
        const [type, value] = pair.split('=');
        return [type!.trim(), Number(value)];
      }),
    );
    await Promise.all(
      devices.map(async (device) => {
        const at = Date.now();
        await device.publish({
          seq: seqOf(at, 7),
          type: 'measurement',
          at: new Date(at).toISOString(),
          values: measured,
        });
        log(`${device.serial} measurement ${values.reading} acknowledged`);
      }),
    );
  }

  if (!values.live) {
    await Promise.all(devices.map((d) => d.close()));
    return;
  }

  // Live: heartbeats, and each day's doses at their simulated times.
  const timers: NodeJS.Timeout[] = [];
  const heartbeat = () =>
    Promise.all(
      devices.map((d) =>
        d
          .publish({
            seq: seqOf(Date.now(), 15),
            type: 'heartbeat',
            at: new Date().toISOString(),
            battery: 87,
            pods: 28,
          })
          .catch(() => undefined),
      ),
    );
  await heartbeat();
  timers.push(setInterval(() => void heartbeat(), MINUTE));
  const planDay = () => {
    const start = Date.now();
    for (const [i, device] of devices.entries()) {
      const doses = simulateDoses({
        regimen: schedule(start),
        zone,
        from: start,
        to: start + DAY,
        now: start + DAY,
        profile: profileFor(first + i),
        random: seededRandom(start + i),
      });
      for (const d of doses)
        timers.push(
          setTimeout(() => {
            void device
              .publish({
                seq: seqOf(d.at),
                type: d.kind === 'taken' ? 'dose_taken' : 'dose_skipped',
                at: new Date().toISOString(),
              })
              .then(() => log(`${device.serial} ${d.kind} acknowledged`));
          }, d.at - start),
        );
    }
    log(
      `planned ${expandSchedule(schedule(start), zone, start, start + DAY).length} doses per device for the next 24 h`,
    );
  };
  planDay();
  timers.push(setInterval(planDay, DAY));
  log('live: answering commands; Ctrl+C stops');
  const stop = async () => {
    for (const t of timers) clearTimeout(t);
    await Promise.all(devices.map((d) => d.close()));
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  process.stderr.write(`simulator failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
