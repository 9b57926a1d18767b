/**
 * What a sig (the prescriber's directions) says about the schedule: how many times a day, how many
 * servings a dose, at bedtime, as needed. Only the common US pharmacy wordings and Latin abbreviations are
 * read; anything else needs the CSV's times_per_day (ADR 045).
 */
export type SigReading = {
  timesPerDay: number | null;
  perDose: number;
  bedtime: boolean;
  asNeeded: boolean;
};

const WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, half: 1 };

const FREQUENCIES: [RegExp, number][] = [
  [
    /\b(four|4)\s*(times|x)\s*(a|per|each)?\s*(day|daily)\b|\bq\.?i\.?d\.?\b|\bevery\s*6\s*h(ou)?rs?\b|\bq6h\b/,
    4,
  ],
  [
    /\b(three|3)\s*(times|x)\s*(a|per|each)?\s*(day|daily)\b|\bt\.?i\.?d\.?\b|\bevery\s*8\s*h(ou)?rs?\b|\bq8h\b/,
    3,
  ],
  [
    /\b(two|2)\s*(times|x)\s*(a|per|each)?\s*(day|daily)\b|\btwice\s*(a|per|each)?\s*(day|daily)\b|\bb\.?i\.?d\.?\b|\bevery\s*12\s*h(ou)?rs?\b|\bq12h\b/,
    2,
  ],
  [
    /\b(once|one\s*time|1\s*(time|x))\s*(a|per|each)?\s*(day|daily)\b|\bdaily\b|\bevery\s*(day|morning|evening|night)\b|\bq\.?d\.?\b|\bqam\b|\bqpm\b|\bq\.?h\.?s\.?\b|\bat\s*bedtime\b|\bnightly\b|\bin\s*the\s*(morning|evening)\b/,
    1,
  ],
];

export function readSig(sig: string): SigReading {
  const s = sig.toLowerCase();
  const asNeeded = /\b(as\s*needed|prn|p\.r\.n\.?)\b/.test(s);
  const bedtime = /\b(q\.?h\.?s\.?|at\s*bedtime|nightly|every\s*night)\b/.test(s);
  let timesPerDay: number | null = null;
  for (const [pattern, n] of FREQUENCIES)
    if (pattern.test(s)) {
      timesPerDay = n;
      break;
    }
  const dose = /\b(?:take|give|inject|inhale|apply|use)\s+(\d{1,2}|one|two|three|four|five|six|half)\b/.exec(
    s,
  );
  const count = dose ? (WORDS[dose[1]!] ?? Number(dose[1])) : 1;
  return { timesPerDay, perDose: Math.min(20, Math.max(1, count)), bedtime, asNeeded };
}
