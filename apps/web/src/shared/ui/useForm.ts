import { type FormEvent, useCallback, useMemo, useRef, useState } from 'react';
import { isApiError } from '../api-client';
import { firstFailure, type Rule } from './validators';

export type FormValues = Record<string, string>;
export type FormRules<V extends FormValues> = { [K in keyof V]?: readonly Rule<V>[] };
export type FormErrors<V extends FormValues> = Partial<Record<keyof V, string>>;

export interface FieldProps {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}

export interface Form<V extends FormValues> {
  values: V;
  errors: FormErrors<V>;
  setValue: <K extends keyof V>(field: K, value: V[K]) => void;
  setValues: (values: V) => void;
  setErrors: (errors: FormErrors<V>) => void;
  field: <K extends keyof V & string>(name: K) => FieldProps;
  /** Checks every rule; shows and returns the errors. */
  validate: () => FormErrors<V>;
  /** Checks the rules of these fields only (a step of a multi-step form); shows and returns their errors. */
  validateFields: (fields: readonly (keyof V)[]) => FormErrors<V>;
  /**
   * Shows a 422 answer's first message of each field under the field of that name (01 §5). Returns the errors
   * shown; empty when the error names none of the form's fields.
   */
  showServerErrors: (error: unknown) => FormErrors<V>;
  /** A submit handler that runs `handler` only when the whole form is valid (01 §5). */
  onSubmit: (handler: (values: V) => void | Promise<void>) => (event?: FormEvent) => void;
}

/** The first failing rule's message of each of `fields` (every field with rules when omitted). */
export function checkForm<V extends FormValues>(
  values: V,
  rules: FormRules<V>,
  fields: readonly (keyof V)[] = Object.keys(rules) as (keyof V)[],
): FormErrors<V> {
  const errors: FormErrors<V> = {};
  for (const name of fields) {
    const message = firstFailure(rules[name] ?? [], values[name] ?? '', values);
    if (message) errors[name] = message;
  }
  return errors;
}

/** The first message of each field of a 422 answer that is one of `values`' fields. */
export function serverFieldErrors<V extends FormValues>(error: unknown, values: V): FormErrors<V> {
  if (!isApiError(error)) return {};
  const errors: FormErrors<V> = {};
  for (const [name, messages] of Object.entries(error.fieldErrors)) {
    const first = messages[0];
    if (Object.hasOwn(values, name) && first && first.trim() !== '') errors[name as keyof V] = first;
  }
  return errors;
}

/** Small form state: string values, per-field rules, errors shown after a failed submit or a fix. */
export function useForm<V extends FormValues>(initialValues: V, rules: FormRules<V>): Form<V> {
  const [values, setAllValues] = useState<V>(initialValues);
  const [errors, setErrors] = useState<FormErrors<V>>({});
  const rulesRef = useRef(rules);
  rulesRef.current = rules;

  const setValue = useCallback(<K extends keyof V>(field: K, value: V[K]) => {
    setAllValues((current) => ({ ...current, [field]: value }));
    // A fixed field loses its error as soon as it is fixed.
    setErrors((current) => {
      if (!current[field]) return current;
      const next = { ...current };
      delete next[field];
      return next;
    });
  }, []);

  const validate = useCallback(() => {
    const found = checkForm(values, rulesRef.current);
    setErrors(found);
    return found;
  }, [values]);

  const validateFields = useCallback(
    (fields: readonly (keyof V)[]) => {
      const found = checkForm(values, rulesRef.current, fields);
      setErrors(found);
      return found;
    },
    [values],
  );

  const showServerErrors = useCallback(
    (error: unknown) => {
      const found = serverFieldErrors(error, values);
      if (Object.keys(found).length > 0) setErrors(found);
      return found;
    },
    [values],
  );

  const onSubmit = useCallback(
    (handler: (values: V) => void | Promise<void>) => (event?: FormEvent) => {
      event?.preventDefault();
      const found = checkForm(values, rulesRef.current);
      setErrors(found);
      if (Object.keys(found).length === 0) void handler(values);
    },
    [values],
  );

  const field = useCallback(
    <K extends keyof V & string>(name: K): FieldProps => ({
      value: values[name] ?? '',
      onChange: (value: string) => setValue(name, value as V[K]),
      error: errors[name],
    }),
    [values, errors, setValue],
  );

  return useMemo(
    () => ({
      values,
      errors,
      setValue,
      setValues: setAllValues,
      setErrors,
      field,
      validate,
      validateFields,
      showServerErrors,
      onSubmit,
    }),
    [values, errors, setValue, field, validate, validateFields, showServerErrors, onSubmit],
  );
}
