import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Biome's cognitive-complexity rule is on for all code (issue 29 §6, biome.json: more than 15 fails the lint).
 * The files that had a function over it when the rule was switched on are its one override; that list may only
 * shrink: a listed file with no function over the limit any more fails here (take it off the list), and a file
 * not listed fails the lint.
 */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const RULE = 'complexity/noExcessiveCognitiveComplexity';

interface BiomeConfig {
  overrides?: { includes?: string[]; linter?: { rules?: { complexity?: Record<string, string> } } }[];
}

function exceptions(): string[] {
  const config = JSON.parse(readFileSync(path.join(REPO, 'biome.json'), 'utf8')) as BiomeConfig;
  const override = config.overrides?.find(
    (o) => o.linter?.rules?.complexity?.noExcessiveCognitiveComplexity === 'off',
  );
  return override?.includes ?? [];
}

describe('the complexity exceptions', () => {
  it('list only files that still have a function over the limit', () => {
    const listed = exceptions();
    expect(listed.length).toBeGreaterThan(0);
    // `--only` runs the rule on the listed files even though their override switches it off.
    let out: string;
    try {
      out = execFileSync(
        path.join(REPO, 'node_modules/.bin/biome'),
        ['lint', `--only=${RULE}`, '--reporter=json', '--max-diagnostics=none', ...listed],
        { cwd: REPO, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] },
      );
    } catch (err) {
      // Biome exits non-zero when a diagnostic is an error; the report is on stdout either way.
      out = String((err as { stdout?: string }).stdout ?? '');
    }
    const report = JSON.parse(out) as { diagnostics: { category: string; location: { path: string } }[] };
    const over = new Set(
      report.diagnostics.filter((d) => d.category === `lint/${RULE}`).map((d) => d.location.path),
    );
    expect(listed.filter((file) => !over.has(file))).toEqual([]);
  });
});
