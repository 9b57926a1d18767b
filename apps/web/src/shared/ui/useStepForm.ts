import { type FormSteps, stepErrors, stepFields } from '@caredeck/domain';
import { type FormEvent, useCallback, useMemo, useState } from 'react';
import {
  checkForm,
  type Form,
  type FormErrors,
  type FormRules,
  type FormValues,
  serverFieldErrors,
  useForm,
} from './useForm';

export interface StepForm<V extends FormValues> extends Omit<Form<V>, 'onSubmit' | 'showServerErrors'> {
  /** The current step, counted from 1 (01 §5). */
  step: number;
  stepCount: number;
  isLastStep: boolean;
  /** Validates the current step only; moves to the next step when it is valid. Returns whether it moved. */
  next: () => boolean;
  /** Back one step, without validating. */
  back: () => void;
  /**
   * The submit handler: before the last step it is `next`; on the last step it checks the whole form (a form
   * submits only when valid) and, when an earlier step fails, shows that step.
   */
  onSubmit: (handler: (values: V) => void | Promise<void>) => (event?: FormEvent) => void;
  /** Shows a 422 answer's messages under their fields and opens the first step that has one. */
  showServerErrors: (error: unknown) => FormErrors<V>;
}

/** Client errors in the server's shape, for the domain's step rules. */
function asFieldErrors<V extends FormValues>(errors: FormErrors<V>): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const [name, message] of Object.entries(errors)) if (message) result[name] = [message];
  return result;
}

/** The first step (from 1) with one of `errors`, or null. */
function firstStepWithErrors<V extends FormValues>(
  steps: FormSteps<keyof V & string>,
  errors: FormErrors<V>,
): number | null {
  const fieldErrors = asFieldErrors(errors);
  for (let step = 1; step <= steps.length; step += 1) {
    if (Object.keys(stepErrors(step, steps, fieldErrors)).length > 0) return step;
  }
  return null;
}

/**
 * A multi-step form (01 §5): `steps` lists each step's fields, step 1 first. Moving on validates only the
 * current step's fields (the domain's `stepErrors`), so later steps show no errors before the user reaches them.
 */
export function useStepForm<V extends FormValues>(
  initialValues: V,
  rules: FormRules<V>,
  steps: FormSteps<keyof V & string>,
): StepForm<V> {
  const form = useForm(initialValues, rules);
  const [step, setStep] = useState(1);
  const stepCount = steps.length;
  const { values, setErrors } = form;

  const next = useCallback(() => {
    const all = checkForm(values, rules);
    const current = stepErrors(step, steps, asFieldErrors(all));
    const shown: FormErrors<V> = {};
    for (const [name, messages] of Object.entries(current)) shown[name as keyof V] = messages[0];
    setErrors(shown);
    if (Object.keys(shown).length > 0 || step >= stepCount) return false;
    setStep(step + 1);
    return true;
  }, [values, rules, step, steps, stepCount, setErrors]);

  const back = useCallback(() => {
    setErrors({});
    setStep((current) => Math.max(1, current - 1));
  }, [setErrors]);

  const onSubmit = useCallback(
    (handler: (values: V) => void | Promise<void>) => (event?: FormEvent) => {
      event?.preventDefault();
      if (step < stepCount) {
        next();
        return;
      }
      const all = checkForm(values, rules);
      const failing = firstStepWithErrors(steps, all);
      if (failing === null) {
        setErrors({});
        void handler(values);
        return;
      }
      const shown: FormErrors<V> = {};
      for (const name of stepFields(failing, steps)) if (all[name]) shown[name] = all[name];
      setErrors(shown);
      setStep(failing);
    },
    [values, rules, step, steps, stepCount, next, setErrors],
  );

  const showServerErrors = useCallback(
    (error: unknown) => {
      const found = serverFieldErrors(error, values);
      const failing = firstStepWithErrors(steps, found);
      if (failing === null) return found;
      setErrors(found);
      setStep(failing);
      return found;
    },
    [values, steps, setErrors],
  );

  return useMemo(
    () => ({
      ...form,
      step,
      stepCount,
      isLastStep: step >= stepCount,
      next,
      back,
      onSubmit,
      showServerErrors,
    }),
    [form, step, stepCount, next, back, onSubmit, showServerErrors],
  );
}
