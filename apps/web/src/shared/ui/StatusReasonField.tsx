import { STATUS_REASON_MAX } from '@caredeck/contracts';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../api-client';
import { TextAreaField, type TextAreaFieldProps } from './TextAreaField';

export type StatusReasonFieldProps = Omit<
  TextAreaFieldProps,
  'label' | 'description' | 'maxLength' | 'error' | 'autosize' | 'minRows' | 'maxRows'
> & {
  /** The failed status call, if any: a 422 that names `reason` marks the field invalid. */
  failure?: unknown;
};

/**
 * The optional reason given with a status change (ADR 052), the same wherever a status is changed (the record's
 * dialog, the patients list's bulk confirmation): "Reason (optional)", a counter up to the server's limit of
 * 500 characters, trimmed on blur like every text field (01 §5; the calls trim again and send no blank reason).
 * The server's message for a refused reason comes as a toast (01 §5); the field is marked invalid beside it.
 */
export function StatusReasonField({ value, failure, ...props }: StatusReasonFieldProps) {
  const { t } = useTranslation();
  const refused = isApiError(failure, 422) && Object.hasOwn(failure.fieldErrors, 'reason');
  return (
    <TextAreaField
      label={t('patients.statusReason.label')}
      description={t('patients.statusReason.counter', { length: value.length, max: STATUS_REASON_MAX })}
      autosize
      minRows={3}
      maxRows={8}
      maxLength={STATUS_REASON_MAX}
      error={refused}
      value={value}
      {...props}
    />
  );
}
