/**
 * The messenger bench (issue 9 §5): `npm run messenger -w bench`. In one run, on one scratch database:
 * 1. CareDeck: 20 staff members of one conversation hold 1,000 sockets (50 each, as tabs and devices
 *    would); messages are posted over HTTP (10 at a time) and each is fanned out to every socket
 *    (`messenger.message` to each member's channel). Latency: from the start of the POST to the arrival on
 *    a socket, over every delivery.
 * 2. The floor, the same way: a bare HTTP + socket.io server whose POST does nothing but emit to a room
 *    holding 1,000 sockets.
 * Rewrites the `messenger` block of bench/RESULTS.md.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { authContract, messengerContract, routeUrl } from '@caredeck/contracts';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import { given } from '../apps/server/src/seed/given';
import { openBenchDatabase } from './database';
import { writeBlock } from './report';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = path.join(HERE, 'RESULTS.md');
const USERS = 20;
const SOCKETS_PER_USER = Number(process.env.MESSENGER_SOCKETS_PER_USER ?? 50);
const MESSAGES = Number(process.env.MESSENGER_MESSAGES ?? 300);
const CONCURRENCY = 10;
const log = (line: string) => process.stdout.write(`[messenger] ${line}\n`);
const n = (v: number) => Math.round(v).toLocaleString('en-US');

type Result = {
  messagesPerSecond: number;
  deliveriesPerSecond: number;
  p50: number;
  p99: number;
  seconds: number;
};

/** Opens sockets and records, per message id, when each socket received it. */
function listen(sockets: Socket[], arrivals: Map<number, number[]>, event: string) {
  for (const socket of sockets)
    socket.on(event, (payload: { message_id: number }) => {
      const list = arrivals.get(payload.message_id) ?? [];
      list.push(performance.now());
      arrivals.set(payload.message_id, list);
    });
}

function open(url: string, auth: Record<string, string>): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(url, { path: '/socket.io', auth, transports: ['websocket'], reconnection: false });
    socket.on('connect', () => resolve(socket));
    socket.on('connect_error', reject);
  });
}

/** Posts MESSAGES messages, CONCURRENCY at a time; waits until every socket has every message. */
async function drive(
  post: (i: number) => Promise<number>,
  sockets: number,
  arrivals: Map<number, number[]>,
): Promise<Result> {
  const started = new Map<number, number>();
  const begin = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < MESSAGES) {
        const i = next++;
        const t0 = performance.now();
        started.set(await post(i), t0);
      }
    }),
  );
  const deadline = Date.now() + 60_000;
  while ([...started.keys()].some((id) => (arrivals.get(id)?.length ?? 0) < sockets) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  let end = begin;
  for (const id of started.keys()) for (const t of arrivals.get(id) ?? []) if (t > end) end = t;
  const latencies = [...started]
    .flatMap(([id, t0]) => (arrivals.get(id) ?? []).map((t) => t - t0))
    .sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!;
  const seconds = (end - begin) / 1000;
  return {
    messagesPerSecond: MESSAGES / seconds,
    deliveriesPerSecond: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    seconds,
  };
}

async function bare(): Promise<Result> {
  const server = createServer();
  const io = new Server(server, { path: '/socket.io', serveClient: false });
  io.on('connection', (socket) => void socket.join('room'));
  let id = 0;
  server.on('request', (req, res) => {
    if (req.url === '/post' && req.method === 'POST') {
      req.resume();
      req.on('end', () => {
        const messageId = ++id;
        io.to('room').emit('message', { conversation_id: 1, message_id: messageId, parent_id: null });
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ data: { id: messageId } }));
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sockets = await Promise.all(Array.from({ length: USERS * SOCKETS_PER_USER }, () => open(url, {})));
  const arrivals = new Map<number, number[]>();
  listen(sockets, arrivals, 'message');
  const result = await drive(
    async () => {
      const res = await fetch(`${url}/post`, { method: 'POST', body: '{"body":"x"}' });
      return ((await res.json()) as { data: { id: number } }).data.id;
    },
    sockets.length,
    arrivals,
  );
  for (const s of sockets) s.disconnect();
  io.close();
  return result;
}

async function main() {
  const machine = `${os.cpus().length} cores, Node ${process.version}; 1-min load average ${os.loadavg()[0]!.toFixed(1)} before the run`;
  const bench = await openBenchDatabase(log);
  try {
    const db = bench.db;
    const g = given(db);
    const password = 'CareDeck-bench-2026';
    const program = await g.program();
    const staff: { id: number; email: string }[] = [];
    for (let i = 0; i < USERS; i++)
      staff.push(
        await g.admin({
          hipaaConsented: true,
          password,
          programRoles: [{ programId: program.id, role: 'care_coordinator' }],
        }),
      );
    const { app } = await buildApp({
      config: testConfig({ LOG_LEVEL: 'silent', WEB_DIST: path.join(HERE, '.no-web-dist') }),
      db,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const tokens: string[] = [];
    for (const s of staff) {
      const res = await fetch(`${url}${authContract.signIn.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: s.email, password }),
      });
      tokens.push(((await res.json()) as { access_token: string }).access_token);
    }
    const auth = (i: number) => ({
      authorization: `Bearer ${tokens[i]}`,
      'content-type': 'application/json',
    });
    const created = await fetch(`${url}${routeUrl(messengerContract.create)}`, {
      method: 'POST',
      headers: auth(0),
      body: JSON.stringify({ program_id: program.id, name: 'Bench', users: staff.slice(1).map((s) => s.id) }),
    });
    const conversationId = ((await created.json()) as { data: { id: number } }).data.id;
    log(
      `${USERS} members, ${USERS * SOCKETS_PER_USER} sockets, ${MESSAGES} messages, ${CONCURRENCY} at a time`,
    );

    const sockets: Socket[] = [];
    for (let i = 0; i < USERS; i++)
      for (let j = 0; j < SOCKETS_PER_USER; j++) sockets.push(await open(url, { token: tokens[i]! }));
    const arrivals = new Map<number, number[]>();
    listen(sockets, arrivals, 'messenger.message');
    const postUrl = `${url}${routeUrl(messengerContract.post, { id: conversationId })}`;
    const caredeck = await drive(
      async (i) => {
        const res = await fetch(postUrl, {
          method: 'POST',
          headers: auth(i % USERS),
          body: JSON.stringify({
            body: `Message ${i}`,
            mentions: i % 10 === 0 ? [staff[(i + 1) % USERS]!.id] : [],
          }),
        });
        if (res.status !== 201) throw new Error(`POST answered ${res.status}`);
        return ((await res.json()) as { data: { id: number } }).data.id;
      },
      sockets.length,
      arrivals,
    );
    for (const s of sockets) s.disconnect();
    await app.close();
    log(`caredeck: ${n(caredeck.messagesPerSecond)} messages/s, p99 ${caredeck.p99.toFixed(0)} ms`);
    const floor = await bare();
    log(`bare: ${n(floor.messagesPerSecond)} messages/s, p99 ${floor.p99.toFixed(0)} ms`);

    const row = (name: string, r: Result) =>
      `| ${name} | ${n(r.messagesPerSecond)} | ${n(r.deliveriesPerSecond)} | ${r.p50.toFixed(0)} ms | ${r.p99.toFixed(0)} ms |`;
    const block = [
      '## Messenger: messages posted and fanned out to 1,000 sockets (issue 9)',
      '',
      `${machine}. ${USERS} staff members of one conversation hold ${USERS * SOCKETS_PER_USER} sockets; ${MESSAGES} messages posted over HTTP, ${CONCURRENCY} at a time, each delivered to every socket. Latency: from the start of the POST to the arrival on a socket, over all ${n(MESSAGES * USERS * SOCKETS_PER_USER)} deliveries. The floor, in the same run: a bare HTTP + socket.io server whose POST only emits to one room of as many sockets.`,
      '',
      '| server | messages/s | deliveries/s | p50 | p99 |',
      '|---|---|---|---|---|',
      row(
        'CareDeck (membership check, insert, notifications, audit, one transaction; emit per member)',
        caredeck,
      ),
      row('bare socket.io emit to one room (the floor)', floor),
      '',
      `CareDeck / floor: ${(caredeck.messagesPerSecond / floor.messagesPerSecond).toFixed(2)} of the floor's message rate; p99 ${(caredeck.p99 / floor.p99).toFixed(2)}× the floor's.`,
      '',
      "The 1,000 socket.io clients run in the bench process on the same two cores, so both rows are bound by the clients' decoding as much as by the server: the ratio is the figure to compare. A server's own cost per message is its POST (one transaction: membership, insert, notifications, audit) and one emit per member.",
    ].join('\n');
    await writeBlock(RESULTS_FILE, 'messenger', 'npm run messenger -w bench', block);
    log('bench/RESULTS.md updated');
  } finally {
    await bench.dispose();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
