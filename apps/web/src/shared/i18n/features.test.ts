import { describe, expect, it } from 'vitest';
import { en } from './en';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') entries.set(`${prefix}${key}`, value);
    else for (const [inner, text] of flatten(value, `${prefix}${key}.`)) entries.set(inner, text);
  }
  return entries;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

/** Every feature's own texts (features/<name>/i18n.ts), found by their file name: no list to keep. */
const featureTexts = import.meta.glob<Record<string, Record<'en' | 'de' | 'fr' | 'pt', Tree>>>(
  '../../features/*/i18n.ts',
  { eager: true },
);
const featureSources = import.meta.glob<string>(
  ['../../features/**/*.{ts,tsx}', '!../../features/**/*.test.{ts,tsx}', '!../../features/*/i18n.ts'],
  { query: '?raw', import: 'default', eager: true },
);

const bundles = Object.entries(featureTexts).flatMap(([path, module]) =>
  Object.values(module).map((texts) => [path, texts] as const),
);

describe('feature texts', () => {
  it('finds the features that have their own texts', () => {
    expect(bundles.length).toBeGreaterThan(0);
  });

  it.each(bundles)(
    '%s: every language has exactly the English keys, none empty, same placeholders',
    (_path, texts) => {
      const english = flatten(texts.en);
      for (const language of ['de', 'fr', 'pt'] as const) {
        const entries = flatten(texts[language]);
        expect([...entries.keys()].sort(), language).toEqual([...english.keys()].sort());
        for (const [key, text] of entries) {
          expect(text.trim(), `${language} ${key}`).not.toBe('');
          expect(placeholders(text), `${language} ${key}`).toEqual(placeholders(english.get(key) ?? ''));
        }
        // A real translation: most texts differ from English.
        const same = [...entries].filter(([key, text]) => english.get(key) === text).length;
        expect(same / entries.size, language).toBeLessThan(0.15);
      }
    },
  );

  it.each(bundles)(
    '%s: every count message has its one and other forms, and a base key for the forms a language has beyond them',
    (_path, texts) => {
      // French and Portuguese have a 'many' form (1,000,000): without the base key i18next would show the key.
      const keys = new Set(flatten(texts.en).keys());
      const incomplete = [...keys]
        .map((key) => /^(.*)_(one|other)$/.exec(key)?.[1])
        .filter((base): base is string => base !== undefined)
        .filter((base) => !['_one', '_other', ''].every((form) => keys.has(`${base}${form}`)));
      expect(incomplete).toEqual([]);
    },
  );

  it.each(bundles)(
    '%s: every key is used by its feature (directly, or through a prefix built at run time)',
    (path, texts) => {
      const folder = path.replace(/i18n\.ts$/, '');
      const code = Object.entries(featureSources)
        .filter(([source]) => source.startsWith(folder))
        .map(([, text]) => text)
        .join('\n');
      const unused = [...flatten(texts.en).keys()].filter((full) => {
        // i18next plural forms (`count_one`, `count_other`) are used through their base key with `count`.
        const key = full.replace(/_(zero|one|two|few|many|other)$/, '');
        if (code.includes(`'${key}'`) || code.includes(`\`${key}\``)) return false;
        // `tabs.${key}` and the like: a prefix written as a template.
        const parts = key.split('.');
        for (let n = parts.length - 1; n > 0; n--)
          if (code.includes(`\`${parts.slice(0, n).join('.')}.\${`)) return false;
        return true;
      });
      expect(unused).toEqual([]);
    },
  );
});

describe('one spelling per language (issue 32 item 8)', () => {
  it("English says 'Program', never 'Programme'", () => {
    const english = [flatten(en as unknown as Tree), ...bundles.map(([, texts]) => flatten(texts.en))];
    const programme = english.flatMap((texts) =>
      [...texts].filter(([, text]) => /\bProgrammes?\b/.test(text)),
    );
    expect(programme).toEqual([]);
  });
});
