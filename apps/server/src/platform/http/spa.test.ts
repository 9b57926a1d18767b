import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../test/harness';
import type { App } from './types';

const dist = mkdtempSync(path.join(tmpdir(), 'caredeck-dist-'));
const script = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;
let app: App;

beforeAll(async () => {
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>CareDeck</title>');
  writeFileSync(path.join(dist, 'assets', 'index-Ab12Cd34.js'), script);
  writeFileSync(path.join(dist, 'assets', 'index-Ab12Cd34.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(dist, 'assets', 'index-Ab12Cd34.js.gz'), gzipSync(script));
  ({ app } = await testApp({ WEB_DIST: dist }));
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const get = (url: string, encoding?: string) =>
  app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('the built console (issue 6 §5)', () => {
  it('sends hashed files precompressed, brotli first, gzip else, and immutable for a year', async () => {
    const br = await get('/assets/index-Ab12Cd34.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await get('/assets/index-Ab12Cd34.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/index-Ab12Cd34.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('revalidates index.html on every load, for a file and for a client-side route', async () => {
    for (const url of ['/index.html', '/patients', '/patient/12/medication']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      const body =
        res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.rawPayload).toString() : res.body;
      expect(body, url).toContain('<title>CareDeck</title>');
    }
  });
});
