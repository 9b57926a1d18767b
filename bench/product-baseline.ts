/**
 * The bare baseline (bench/baseline.ts) as its own process for bench/product.ts, so it does not share an
 * event loop with the bench that drives it. Input: one JSON argument; output: `listening <url>` on stdout.
 */
import { startBaseline } from './baseline';

const input = JSON.parse(process.argv[2] ?? '{}') as Parameters<typeof startBaseline>[0];
const server = await startBaseline(input);
process.stdout.write(`listening ${server.baseUrl}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void server.close().finally(() => process.exit(0));
  });
