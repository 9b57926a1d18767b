/**
 * The device load generator of the ingestion bench, run as its own process (so that it does not share an
 * event loop with the broker it measures). Each device is one MQTT connection keeping `inflight` QoS 1
 * events unacknowledged; an event counts as stored-and-acknowledged when its PUBACK arrives.
 *
 * Input: one JSON argument (GeneratorConfig). Output: one JSON line (GeneratorResult) on stdout.
 */
import { writeFileSync } from 'node:fs';
import mqtt, { type MqttClient } from 'mqtt';

export type GeneratorConfig = {
  url: string;
  devices: { serial: string; secret: string }[];
  durationMs: number;
  inflight: number;
  /** First sequence number of every device (a second run continues after the first). */
  startSeq: number;
  /** Resend exactly these sequence numbers per device instead of new ones (after a crash). */
  resend?: Record<string, number[]>;
  /** Writes the sequence numbers sent and acknowledged per device here (the crash test reads them). */
  ledger?: string;
  /**
   * Paced load (bench/product.ts): this many events per second over all devices, each device publishing
   * on its own timer (still at most `inflight` unacknowledged), instead of as fast as PUBACKs come back.
   */
  ratePerSecond?: number;
};

export type GeneratorResult = {
  sent: number;
  acked: number;
  failed: number;
  elapsedMs: number;
  p50: number;
  p99: number;
  cpuMs: number;
};

const config = JSON.parse(process.argv[2] ?? '{}') as GeneratorConfig;

function body(seq: number, at: string): string {
  const k = seq % 10;
  if (k < 5) return `{"seq":${seq},"type":"heartbeat","at":"${at}","battery":${50 + (seq % 50)}}`;
  if (k < 8)
    return `{"seq":${seq},"type":"measurement","at":"${at}","values":{"systolic":${110 + (seq % 40)},"diastolic":${70 + (seq % 20)},"pulse":${60 + (seq % 30)}}}`;
  return `{"seq":${seq},"type":"dose_taken","at":"${at}"}`;
}

async function main() {
  const cpu = process.cpuUsage();
  const latencies: number[] = [];
  const sent: Record<string, number[]> = {};
  const acked: Record<string, number[]> = {};
  let failed = 0;
  const clients: MqttClient[] = [];
  for (const d of config.devices) {
    const client = mqtt.connect(config.url, {
      username: d.serial,
      password: d.secret,
      clientId: `bench-${d.serial}-${process.pid}`,
      reconnectPeriod: 0,
      connectTimeout: 10_000,
      // The generator's own queue must not hold events the broker has not seen: fail them instead.
      queueQoSZero: false,
    });
    client.on('error', () => {});
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    clients.push(client);
    sent[d.serial] = [];
    acked[d.serial] = [];
  }
  const started = performance.now();
  let deadline = started + config.durationMs;
  // SIGTERM ends the load early (bench/product.ts, when its screens are measured): no new events, the
  // outstanding ones are awaited and the result line is written as usual.
  process.once('SIGTERM', () => {
    deadline = Math.min(deadline, performance.now());
  });
  await Promise.all(
    config.devices.map(
      (d, i) =>
        new Promise<void>((resolve) => {
          const client = clients[i]!;
          const queue = config.resend?.[d.serial] ? [...config.resend[d.serial]!] : null;
          let next = config.startSeq;
          let outstanding = 0;
          let closed = false;
          const finish = () => {
            if (outstanding === 0 || closed) resolve();
          };
          client.on('close', () => {
            closed = true;
            resolve();
          });
          // Paced: an acknowledgement does not trigger the next event, the timer does.
          const publishOneOnly = () => {
            if (closed) return;
            const seq = next++;
            outstanding++;
            const t0 = performance.now();
            sent[d.serial]!.push(seq);
            client.publish(
              `devices/${d.serial}/events`,
              body(seq, new Date().toISOString()),
              { qos: 1 },
              (err) => {
                outstanding--;
                if (err) failed++;
                else {
                  latencies.push(performance.now() - t0);
                  acked[d.serial]!.push(seq);
                }
                if (performance.now() >= deadline) finish();
              },
            );
          };
          const publishOne = () => {
            if (closed) return;
            if (queue ? queue.length === 0 : performance.now() >= deadline) return finish();
            const seq = queue ? queue.shift()! : next++;
            outstanding++;
            const t0 = performance.now();
            sent[d.serial]!.push(seq);
            client.publish(
              `devices/${d.serial}/events`,
              body(seq, new Date().toISOString()),
              { qos: 1 },
              (err) => {
                outstanding--;
                if (err) failed++;
                else {
                  latencies.push(performance.now() - t0);
                  acked[d.serial]!.push(seq);
                }
                publishOne();
              },
            );
          };
          if (config.ratePerSecond) {
            // On a fixed schedule (not `every` after the last tick), so timer lateness does not lower the rate.
            const every = (config.devices.length * 1000) / config.ratePerSecond;
            let due = started + (every * i) / config.devices.length;
            const tick = () => {
              for (let now = performance.now(); due <= now; due += every) {
                if (closed || now >= deadline) return finish();
                if (outstanding < config.inflight) publishOneOnly();
              }
              if (closed || performance.now() >= deadline) return finish();
              setTimeout(tick, Math.max(0, due - performance.now()));
            };
            setTimeout(tick, Math.max(0, due - performance.now()));
            return;
          }
          for (let k = 0; k < config.inflight; k++) publishOne();
        }),
    ),
  );
  const elapsedMs = performance.now() - started;
  await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]! : 0;
  if (config.ledger) writeFileSync(config.ledger, JSON.stringify({ sent, acked }));
  const used = process.cpuUsage(cpu);
  const result: GeneratorResult = {
    sent: Object.values(sent).reduce((n, s) => n + s.length, 0),
    acked: latencies.length,
    failed,
    elapsedMs,
    p50: pct(0.5),
    p99: pct(0.99),
    cpuMs: (used.user + used.system) / 1000,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`generator failed: ${(err as Error).message}\n`);
  process.exit(1);
});
