import type { FieldErrors } from './errors';

/** A multi-step form: the field names of each step, in step order (step 1 first). */
export type FormSteps<Field extends string = string> = ReadonlyArray<ReadonlyArray<Field>>;

/** The fields of `step` (counted from 1, 01 §5). Throws RangeError for a step the form does not have. */
export function stepFields<Field extends string>(step: number, steps: FormSteps<Field>): readonly Field[] {
  const fields = Number.isInteger(step) ? steps[step - 1] : undefined;
  if (!fields) throw new RangeError(`stepFields: step ${step} is not between 1 and ${steps.length}`);
  return fields;
}

// Server keys of nested values ('address.city', 'phones.0.number', 'phones[0]') belong to their root field.
function belongsTo(errorKey: string, field: string): boolean {
  return (
    errorKey === field ||
    (errorKey.startsWith(field) && (errorKey[field.length] === '.' || errorKey[field.length] === '['))
  );
}

/**
 * Only the errors of the current step's fields, so a multi-step form validates one step at a time.
 * Keeps the errors object's key order; fields with no messages are left out.
 */
export function stepErrors(step: number, steps: FormSteps, errors: FieldErrors): Record<string, string[]> {
  const fields = stepFields(step, steps);
  const result: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(errors)) {
    if (messages && messages.length > 0 && fields.some((field) => belongsTo(key, field))) {
      result[key] = [...messages];
    }
  }
  return result;
}

/** True when none of the current step's fields has an error; the user may go to the next step. */
export function isStepValid(step: number, steps: FormSteps, errors: FieldErrors): boolean {
  return Object.keys(stepErrors(step, steps, errors)).length === 0;
}
