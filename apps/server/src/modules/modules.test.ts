import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MODULES } from '.';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const folders = readdirSync(HERE).filter((entry) => statSync(path.join(HERE, entry)).isDirectory());

describe('one shape per module (issue 6 §2, docs/architecture.md)', () => {
  it('registers every module folder through the one list', () => {
    expect(MODULES.map((m) => m.name).sort()).toEqual(folders.sort());
  });

  it('keeps SQL in *.queries.ts: no service or route writes a statement', () => {
    const offenders: string[] = [];
    for (const folder of folders) {
      for (const file of readdirSync(path.join(HERE, folder))) {
        if (!/\.(service|routes)\.ts$/.test(file)) continue;
        const lines = readFileSync(path.join(HERE, folder, file), 'utf8').split('\n');
        lines.forEach((line, i) => {
          if (/\bsql`|\.execute\(/.test(line)) offenders.push(`${folder}/${file}:${i + 1}: ${line.trim()}`);
        });
      }
    }
    expect(offenders).toEqual([]);
  });
});
