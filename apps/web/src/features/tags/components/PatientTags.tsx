import { MultiSelect } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toastErrors } from '../../../shared/ui/toasts';
import { TAGS_KEY, tagCalls, usePatientTags, useTags } from '../api';
import '../i18n';

/** The patient's tags: chosen from the program's tags, saved on each change. */
export function PatientTags({
  programId,
  patientId,
  canEdit,
}: {
  programId: number;
  patientId: number;
  canEdit: boolean;
}) {
  const { t } = useTranslation('tags');
  const all = useTags(programId);
  const mine = usePatientTags(patientId);
  const queryClient = useQueryClient();
  const value = (mine.data?.data ?? []).map((tag) => String(tag.id));
  return (
    <MultiSelect
      label={t('patientTags')}
      placeholder={value.length ? undefined : t('noTags')}
      data={(all.data?.data ?? []).map((tag) => ({ value: String(tag.id), label: tag.name }))}
      value={value}
      readOnly={!canEdit}
      searchable
      clearable={canEdit}
      onChange={async (ids) => {
        try {
          await tagCalls.setPatientTags(patientId, ids.map(Number));
        } catch (error) {
          toastErrors(error);
        } finally {
          await queryClient.invalidateQueries({ queryKey: TAGS_KEY });
        }
      }}
      maw={520}
      data-testid="patient-tags"
    />
  );
}
