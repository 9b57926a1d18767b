import {
  BILLING_PERIOD_CODES,
  BILLING_PERIOD_STATUSES,
  type BillingPeriodCode,
  type BillingPeriodStatus,
} from '@caredeck/contracts';
import { Button, Chip, Group, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import '../periods-i18n';

/** The evidence view's filters as they stand in the URL (`code`, `status`, `mine=1`), unknown values dropped. */
export type PeriodUrlFilters = {
  code: BillingPeriodCode | '';
  status: BillingPeriodStatus | '';
  mine: boolean;
};

const isCode = (v: string): v is BillingPeriodCode => (BILLING_PERIOD_CODES as readonly string[]).includes(v);
const isStatus = (v: string): v is BillingPeriodStatus =>
  (BILLING_PERIOD_STATUSES as readonly string[]).includes(v);

export function readPeriodFilters(params: URLSearchParams): PeriodUrlFilters {
  const code = params.get('code') ?? '';
  const status = params.get('status') ?? '';
  return {
    code: isCode(code) ? code : '',
    status: isStatus(status) ? status : '',
    mine: params.get('mine') === '1',
  };
}

export const hasPeriodFilters = (f: PeriodUrlFilters) => !!f.code || !!f.status || f.mine;

/** Code, status and "assigned to me"; each change is a URL change (reload and back keep it). */
export function PeriodFilterBar({
  value,
  onChange,
}: {
  value: PeriodUrlFilters;
  onChange: (patch: Record<string, string>) => void;
}) {
  const { t } = useTranslation('billingPeriods');
  return (
    <Group gap="sm" align="flex-end" wrap="wrap" role="group" aria-label={t('filters.title')}>
      <Select
        label={t('filters.code')}
        value={value.code}
        onChange={(code) => onChange({ code: code ?? '', page: '' })}
        data={[
          { value: '', label: t('filters.anyCode') },
          ...BILLING_PERIOD_CODES.map((c) => ({ value: c, label: c })),
        ]}
        allowDeselect={false}
        w={160}
        data-testid="filter-code"
      />
      <Select
        label={t('filters.status')}
        value={value.status}
        onChange={(status) => onChange({ status: status ?? '', page: '' })}
        data={[
          { value: '', label: t('filters.anyStatus') },
          ...BILLING_PERIOD_STATUSES.map((s) => ({ value: s, label: t(`filters.statuses.${s}`) })),
        ]}
        allowDeselect={false}
        w={200}
        data-testid="filter-status"
      />
      <Chip
        checked={value.mine}
        onChange={(checked) => onChange({ mine: checked ? '1' : '', page: '' })}
        data-testid="filter-mine"
      >
        {t('filters.mine')}
      </Chip>
      {hasPeriodFilters(value) && (
        <Button variant="subtle" onClick={() => onChange({ code: '', status: '', mine: '', page: '' })}>
          {t('filters.clear')}
        </Button>
      )}
    </Group>
  );
}
