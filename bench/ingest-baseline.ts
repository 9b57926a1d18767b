/**
 * The bare ingestion baseline of DESIGN §5, run as its own process: aedes embedded, JSON parse, batches
 * of up to 2,000 rows or 20 ms written with one `INSERT … SELECT FROM unnest(…) ON CONFLICT DO NOTHING`,
 * QoS 1 PUBACK only after commit (the authorizePublish callback is held). No device sign-in, no
 * validation, no derived rows: what any MQTT → PostgreSQL pipeline must at least do.
 *
 * Arguments: database URL, port. Prints `ready` once listening; SIGTERM stops it.
 */
import { createServer } from 'node:net';
import { Aedes } from 'aedes';
import pg from 'pg';

const [url, portArg] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 4 });
await pool.query(`CREATE TABLE IF NOT EXISTS bench_raw_events (
  device text NOT NULL, seq bigint NOT NULL, type text NOT NULL, at timestamptz NOT NULL, payload jsonb NOT NULL,
  PRIMARY KEY (device, seq))`);

type Pending = {
  device: string;
  seq: number;
  type: string;
  at: string;
  payload: string;
  done: (e?: Error | null) => void;
};
const queue: Pending[] = [];
let timer: NodeJS.Timeout | null = null;
let writing = false;

async function write(batch: Pending[]) {
  const client = await pool.connect();
  let error: Error | null = null;
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO bench_raw_events (device, seq, type, at, payload)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::timestamptz[], $5::jsonb[])
       ON CONFLICT DO NOTHING`,
      [
        batch.map((p) => p.device),
        batch.map((p) => p.seq),
        batch.map((p) => p.type),
        batch.map((p) => p.at),
        batch.map((p) => p.payload),
      ],
    );
    await client.query('COMMIT');
  } catch (err) {
    error = err as Error;
    await client.query('ROLLBACK').catch(() => {});
  } finally {
    client.release();
  }
  for (const p of batch) p.done(error);
}

function flush() {
  if (timer) clearTimeout(timer);
  timer = null;
  if (writing || queue.length === 0) return;
  const batch = queue.splice(0, 2000);
  writing = true;
  void write(batch).finally(() => {
    writing = false;
    if (queue.length >= 2000) flush();
    else if (queue.length > 0 && !timer) timer = setTimeout(flush, 0);
  });
}

const broker = await Aedes.createBroker({
  concurrency: 1000,
  authorizePublish(client, packet, done) {
    if (!client) return done(null);
    try {
      const e = JSON.parse(packet.payload.toString()) as { seq: number; type: string; at: string };
      queue.push({
        device: packet.topic.split('/')[1] ?? '',
        seq: e.seq,
        type: e.type,
        at: e.at,
        payload: packet.payload.toString(),
        done,
      });
      if (queue.length >= 2000) flush();
      else if (!timer) timer = setTimeout(flush, 20);
    } catch {
      done(null);
    }
  },
});
const server = createServer(broker.handle);
server.listen(Number(portArg), '127.0.0.1', () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => {
  server.close();
  broker.close(() => void pool.end().then(() => process.exit(0)));
});
