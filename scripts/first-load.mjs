#!/usr/bin/env node
// What the console's first screens download before they show, over the wire (brotli, as served), checked
// against the budgets below (ADR 048). Reads the build: run `npm run build -w apps/web` first.
// `--json` prints the figures as JSON.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const web = fileURLToPath(new URL('../apps/web/', import.meta.url));
const dist = path.join(web, 'dist');
const KB = 1024;

/**
 * Budgets in KB over the wire, just above what the screens take. The aim is 170 KB of JavaScript per
 * screen: the sign-in page is under it; /patients is not, mainly React + React Router (~82 KB) and zod (~23 KB,
 * which parses the list's answer before it shows): ADR 048.
 */
export const SCREENS = [
  {
    name: 'sign-in (/login)',
    pages: ['src/features/identity/pages/LoginPage.tsx'],
    budget: { js: 170, css: 17 },
  },
  {
    name: 'patients (/patients)',
    pages: ['src/app/shell/ConsoleShell.tsx', 'src/features/patients/pages/PatientsPage.tsx'],
    budget: { js: 255, css: 17 },
  },
];

/** Bytes a file costs over the wire: its .br twin when the build made one (files over 1 KiB), else itself. */
function wireBytes(file) {
  const full = path.join(dist, file);
  return existsSync(`${full}.br`) ? statSync(`${full}.br`).size : statSync(full).size;
}

export function measure() {
  const mapFile = path.join(web, '.bundle', 'chunks.json');
  if (!existsSync(mapFile)) throw new Error('No build found: run `npm run build -w apps/web` first');
  const chunks = JSON.parse(readFileSync(mapFile, 'utf8'));
  const byFile = new Map(chunks.map((chunk) => [chunk.file, chunk]));
  const entry = chunks.find((chunk) => chunk.entry);
  if (!entry) throw new Error('The build has no entry chunk');
  const closure = (file, files) => {
    if (files.has(file)) return;
    files.add(file);
    for (const imported of byFile.get(file)?.imports ?? []) closure(imported, files);
  };
  return SCREENS.map((screen) => {
    const files = new Set();
    closure(entry.file, files);
    for (const page of screen.pages) {
      const chunk = chunks.find((candidate) => candidate.source === page);
      if (!chunk) throw new Error(`No chunk is built from ${page}`);
      closure(chunk.file, files);
    }
    const css = new Set([...files].flatMap((file) => byFile.get(file)?.css ?? []));
    const js = [...files].reduce((sum, file) => sum + wireBytes(file), 0) + wireBytes('index.html');
    const cssBytes = [...css].reduce((sum, file) => sum + wireBytes(file), 0);
    return {
      screen: screen.name,
      files: files.size + css.size + 1,
      jsKB: Math.round((js / KB) * 10) / 10,
      cssKB: Math.round((cssBytes / KB) * 10) / 10,
      budget: screen.budget,
    };
  });
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1]);
if (isMain) {
  const figures = measure();
  if (process.argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  } else {
    let over = 0;
    for (const f of figures) {
      const jsOver = f.jsKB > f.budget.js;
      const cssOver = f.cssKB > f.budget.css;
      if (jsOver || cssOver) over++;
      process.stdout.write(
        `${f.screen}: JavaScript ${f.jsKB} KB (budget ${f.budget.js})${jsOver ? ' OVER' : ''}, ` +
          `CSS ${f.cssKB} KB (budget ${f.budget.css})${cssOver ? ' OVER' : ''}, ${f.files} files, brotli\n`,
      );
    }
    if (over > 0) {
      process.stderr.write(
        'The first load is over its budget: load what the first screen does not need later.\n',
      );
      process.exit(1);
    }
  }
}
