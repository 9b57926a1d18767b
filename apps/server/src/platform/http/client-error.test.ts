import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { errorBody } from '@caredeck/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../test/harness';

// Issue 28 item 5: what Node's HTTP parser refuses before Fastify routes it answers in the contract's error
// shape. inject() bypasses the parser, so these go through a real socket.

let port = 0;

beforeAll(async () => {
  const { app } = await testApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});

/** Sends raw bytes and reads the whole answer until the server closes the connection. */
function raw(request: string | Buffer): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (e) => (chunks.length > 0 ? undefined : reject(e)));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body });
    });
    socket.write(request);
  });
}

function expectContractShape(res: { body: string; headers: string }) {
  const body = JSON.parse(res.body);
  expect(errorBody.strict().safeParse(body).success, res.body).toBe(true);
  expect(body).not.toHaveProperty('statusCode');
  expect(body).not.toHaveProperty('error');
  expect(res.headers).toMatch(/content-type: application\/json/i);
  expect(res.headers).toMatch(/cache-control: no-store/i);
}

describe("requests refused by Node's HTTP parser (issue 28 item 5)", () => {
  it('answers a 1 MB query with 431 in the contract shape', async () => {
    const res = await raw(`GET /api/v1/user?q=${'a'.repeat(1024 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(res.status).toBe(431);
    expectContractShape(res);
    expect(JSON.parse(res.body)).toEqual({ message: 'The request line or headers are too large.' });
  });

  it('answers control bytes in a header with 400 in the contract shape, echoing nothing', async () => {
    const res = await raw(
      Buffer.concat([
        Buffer.from('GET /api/v1/user HTTP/1.1\r\nHost: x\r\nX-Patient: Ros'),
        Buffer.from([0x01, 0x00]),
        Buffer.from('a\r\n\r\n'),
      ]),
    );
    expect(res.status).toBe(400);
    expectContractShape(res);
    expect(res.body).not.toMatch(/Ros/);
  });

  it('answers a request line that is not HTTP with 400 in the contract shape', async () => {
    const res = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(res.status).toBe(400);
    expectContractShape(res);
  });

  it('still serves a well-formed request on the same server', async () => {
    const res = await raw('GET /api/v1/user HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(401);
    expectContractShape(res);
  });

  it('answers a request arriving while the server shuts down with 503, Retry-After and the contract shape', async () => {
    const { app: closingApp } = await testApp();
    await closingApp.listen({ port: 0, host: '127.0.0.1' });
    const closingPort = (closingApp.server.address() as AddressInfo).port;
    // A request under way (its head half sent) when the shutdown begins; it completes after.
    const accepted = new Promise((resolve) => closingApp.server.once('connection', resolve));
    const socket = net.connect(closingPort, '127.0.0.1');
    await accepted;
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    const ended = new Promise((resolve) => socket.once('close', resolve));
    await new Promise((resolve) => socket.write('GET /api/v1/user HTTP/1.1\r\nHost: x\r\n', resolve));
    const closed = closingApp.close();
    await new Promise((resolve) => setImmediate(resolve));
    socket.write('\r\n');
    await ended;
    await closed;
    const text = Buffer.concat(chunks).toString('utf8');
    const [head = '', body = ''] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 503/);
    expect(head).toMatch(/retry-after: 5/i);
    expect(JSON.parse(body)).toEqual({ message: 'The server is restarting. Please try again in a moment.' });
  });
});
