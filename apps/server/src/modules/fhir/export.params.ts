import { AppError } from '../../platform/http/errors';

/**
 * The kick-off parameters of Bulk Data `$export` (docs/fhir.md, ADR 079): `_type`, `_since`, `_outputFormat`.
 * Any other parameter answers 400 unless the client asked `Prefer: handling=lenient` (then it is ignored, as a
 * `_type` this server does not serve is).
 */
export type ExportParams = { types: string[] | null; since: Date | null };

/** The formats Bulk Data names for NDJSON; we write nothing else. */
const OUTPUT_FORMATS = new Set(['application/fhir+ndjson', 'application/ndjson', 'ndjson']);

/** An instant: a date and time to the second at least, with its zone (FHIR's `instant`). */
const INSTANT =
  /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$/;

function refuse(parameter: string, message: string): AppError {
  return new AppError('bad_request', message, { [parameter]: [message] });
}

/** Whether the client asked for the asynchronous pattern (`Prefer: respond-async`), which `$export` requires. */
export function respondsAsync(prefer: string | string[] | undefined): boolean {
  const text = Array.isArray(prefer) ? prefer.join(',') : (prefer ?? '');
  return /(^|[,;\s])respond-async\b/i.test(text);
}

function parseTypes(value: string, served: readonly string[], lenient: boolean): string[] {
  const types: string[] = [];
  for (const type of value.split(',').map((t) => t.trim())) {
    if (served.includes(type)) types.push(type);
    else if (!lenient)
      throw refuse(
        '_type',
        `_type: ${type.slice(0, 60) || '(empty)'} is not exported here (${served.join(', ')}).`,
      );
  }
  return types;
}

function parseSince(value: string): Date {
  const at = Date.parse(value);
  if (!INSTANT.test(value) || Number.isNaN(at))
    throw refuse('_since', '_since must be an instant such as 2026-03-01T00:00:00Z.');
  return new Date(at);
}

function checkOutputFormat(value: string): void {
  if (!OUTPUT_FORMATS.has(value))
    throw refuse('_outputFormat', '_outputFormat: only application/fhir+ndjson is written.');
}

export function parseExportParams(
  rawQuery: string,
  served: readonly string[],
  lenient: boolean,
): ExportParams {
  let types: string[] | null = null;
  let since: Date | null = null;
  for (const [key, value] of new URLSearchParams(rawQuery)) {
    if (key === '_type') types = [...(types ?? []), ...parseTypes(value, served, lenient)];
    else if (key === '_since') since = parseSince(value);
    else if (key === '_outputFormat') checkOutputFormat(value);
    else if (!lenient)
      throw refuse(key, `The parameter ${key.slice(0, 60)} is not supported by $export here.`);
  }
  if (types !== null && types.length === 0)
    throw refuse('_type', '_type names no resource type exported here.');
  return { types: types === null ? null : [...new Set(types)], since };
}
