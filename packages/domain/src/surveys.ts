/**
 * Survey scoring (ADR 036): answers checked against their questions, points summed into a score, and the
 * triggers a completed response sets off. Pure: the server scores with it, the console shows the same sums.
 */
export type ScoredQuestion = {
  id: number;
  text: string;
  kind: 'single' | 'multiple' | 'number' | 'text';
  options: { value: string; label: string; score: number }[];
  min: number | null;
  max: number | null;
  required: boolean;
};

export type RawAnswer = { question_id: number; value: string | number | string[] };
export type ScoredAnswer = {
  question_id: number;
  value: string | number | string[];
  /** Points of the chosen options (single, multiple); the number itself (number); null for text. */
  score: number | null;
};

export type TriggerRule = {
  id: number;
  kind: 'score' | 'question';
  question_id: number | null;
  value: number | null;
  is_active: boolean;
};
export type Fired = {
  trigger_id: number;
  kind: 'score' | 'question';
  question_id: number | null;
  question: string | null;
  value: number;
  threshold: number;
};

export type ScoringMessages = {
  answerRequired: string;
  unknownOption: string;
  oneOption: string;
  outOfRange: string;
  unknownQuestion: string;
};

/** The most points a survey can give: the best option of each single question, every positive option of a multiple one. */
export function maxScore(questions: readonly ScoredQuestion[]): number {
  let total = 0;
  for (const q of questions) {
    if (q.kind === 'single' && q.options.length > 0) total += Math.max(0, ...q.options.map((o) => o.score));
    if (q.kind === 'multiple') total += q.options.reduce((n, o) => n + Math.max(0, o.score), 0);
  }
  return total;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** One answer checked against its question: its value and score, an error message, or null when left blank. */
function checkAnswer(
  q: ScoredQuestion,
  value: RawAnswer['value'],
  m: ScoringMessages,
): Omit<ScoredAnswer, 'question_id'> | string | null {
  const blank = (Array.isArray(value) && value.length === 0) || (typeof value === 'string' && !value.trim());
  if (blank) return null;
  if (q.kind === 'single' || q.kind === 'multiple') {
    const unique = [...new Set(Array.isArray(value) ? value : [String(value)])];
    if (q.kind === 'single' && unique.length > 1) return m.oneOption;
    const options = unique.map((v) => q.options.find((o) => o.value === v));
    if (options.some((o) => !o)) return m.unknownOption;
    return {
      value: q.kind === 'single' ? unique[0]! : unique,
      score: round(options.reduce((n, o) => n + o!.score, 0)),
    };
  }
  if (q.kind === 'number') {
    const n = typeof value === 'number' ? value : Number(String(value).trim());
    if (Array.isArray(value) || !Number.isFinite(n)) return m.outOfRange;
    if ((q.min !== null && n < q.min) || (q.max !== null && n > q.max)) return m.outOfRange;
    return { value: n, score: n };
  }
  if (Array.isArray(value)) return m.unknownOption;
  return { value: String(value).trim(), score: null };
}

/**
 * Checks and scores answers. Errors are keyed `answers.{index}` (and `answers.q{id}` for a missing
 * required answer) so a form shows them on the question. A complete response needs every required
 * question answered; an incomplete one keeps whatever is valid.
 */
export function scoreAnswers(
  questions: readonly ScoredQuestion[],
  answers: readonly RawAnswer[],
  complete: boolean,
  m: ScoringMessages,
): { answers: ScoredAnswer[]; score: number; errors: Record<string, string[]> } {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const errors: Record<string, string[]> = {};
  const scored = new Map<number, ScoredAnswer>();
  for (const [i, a] of answers.entries()) {
    const q = byId.get(a.question_id);
    const checked = q ? checkAnswer(q, a.value, m) : m.unknownQuestion;
    if (typeof checked === 'string') errors[`answers.${i}`] = [checked];
    else if (checked && q) scored.set(q.id, { question_id: q.id, ...checked });
  }
  if (complete)
    for (const q of questions)
      if (q.required && !scored.has(q.id)) errors[`answers.q${q.id}`] = [m.answerRequired];
  const list = questions.flatMap((q) => (scored.has(q.id) ? [scored.get(q.id)!] : []));
  // Numbers are answers, not points: only options count towards the score.
  const score = round(
    list.reduce((n, a) => n + (byId.get(a.question_id)!.kind === 'number' ? 0 : (a.score ?? 0)), 0),
  );
  return { answers: list, score, errors };
}

/** The active triggers a completed response meets: its score, or one question's points or number, at or above the value. */
export function firedTriggers(
  triggers: readonly TriggerRule[],
  questions: readonly ScoredQuestion[],
  answers: readonly ScoredAnswer[],
  score: number,
): Fired[] {
  const text = new Map(questions.map((q) => [q.id, q.text]));
  const answerOf = new Map(answers.map((a) => [a.question_id, a]));
  const out: Fired[] = [];
  for (const t of triggers) {
    if (!t.is_active || t.value === null) continue;
    if (t.kind === 'score') {
      if (score >= t.value)
        out.push({
          trigger_id: t.id,
          kind: 'score',
          question_id: null,
          question: null,
          value: score,
          threshold: t.value,
        });
      continue;
    }
    const a = t.question_id === null ? undefined : answerOf.get(t.question_id);
    if (a?.score !== null && a?.score !== undefined && a.score >= t.value)
      out.push({
        trigger_id: t.id,
        kind: 'question',
        question_id: t.question_id,
        question: text.get(t.question_id!) ?? null,
        value: a.score,
        threshold: t.value,
      });
  }
  return out;
}
