import { Box, Group, Pagination, Text } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DeferredSelect } from '../../../shared/ui/DeferredSelect';

export const PER_PAGE_OPTIONS = [10, 25, 50, 100] as const;

// Mantine's arrow buttons carry only an icon: each needs a name (01 accessibility, DESIGN §6).

export interface PatientListFooterProps {
  total: number;
  page: number;
  lastPage: number;
  perPage: number;
  onPage: (page: number) => void;
  onPerPage: (perPage: number) => void;
}

/** Total, page size (10/25/50/100) and pages of the patient list. */
export function PatientListFooter({
  total,
  page,
  lastPage,
  perPage,
  onPage,
  onPerPage,
}: PatientListFooterProps) {
  const { t } = useTranslation();
  const perPageId = useId();
  return (
    <Group justify="space-between" wrap="wrap">
      <Group gap="lg">
        <Text size="sm" c="dimmed" data-testid="patients-total">
          {t('patients.total', { count: total })}
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Text component="label" htmlFor={perPageId} size="sm">
            {t('patients.perPage')}
          </Text>
          <DeferredSelect
            id={perPageId}
            size="xs"
            w={80}
            data={PER_PAGE_OPTIONS.map((option) => String(option))}
            value={String(perPage)}
            onChange={(value) => value && onPerPage(Number(value))}
            allowDeselect={false}
          />
        </Group>
      </Group>
      <Box component="nav" aria-label={t('patients.pagination')}>
        <Pagination
          total={lastPage}
          value={Math.min(page, Math.max(1, lastPage))}
          onChange={onPage}
          size="sm"
        />
      </Box>
    </Group>
  );
}
