import { type FormEvent, useCallback, useMemo, useRef, useState } from 'react';
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
  field: <K extends keyof V & string>(name: K) => FieldProps;
  /** Checks every rule; shows and returns the errors. */
  validate: () => FormErrors<V>;
  /** A submit handler that runs `handler` only when the whole form is valid (01 §5). */
  onSubmit: (handler: (values: V) => void | Promise<void>) => (event?: FormEvent) => void;
}

function check<V extends FormValues>(values: V, rules: FormRules<V>): FormErrors<V> {
  const errors: FormErrors<V> = {};
  for (const name of Object.keys(rules) as (keyof V)[]) {
    const message = firstFailure(rules[name] ?? [], values[name] ?? '', values);
    if (message) errors[name] = message;
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
    const found = check(values, rulesRef.current);
    setErrors(found);
    return found;
  }, [values]);

  const onSubmit = useCallback(
    (handler: (values: V) => void | Promise<void>) => (event?: FormEvent) => {
      event?.preventDefault();
      const found = check(values, rulesRef.current);
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
    () => ({ values, errors, setValue, setValues: setAllValues, field, validate, onSubmit }),
    [values, errors, setValue, field, validate, onSubmit],
  );
}
