import type { PatientRecord } from '@caredeck/contracts';
import { Badge, Button, Group, MultiSelect, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useCurrentUser } from '../../identity/api';
import { useChangeProgram, useSetPrograms } from '../api';

/** Home program and enrolments (PUT users/{id}/program, PUT users/{id}/programs; ADR 019). */
export function ProgramsPanel({ patient }: { patient: PatientRecord }) {
  const { t } = useTranslation('patientRecord');
  const user = useCurrentUser();
  const home = patient.programs.find((p) => p.id === patient.program_id);
  const homeEnterprise = user?.programs.find((p) => p.id === patient.program_id)?.enterprise_id ?? null;
  // Programs the user works in, of the patient's enterprise: the only ones a patient may move to or join.
  const candidates = (user?.programs ?? []).filter((p) =>
    homeEnterprise === null ? p.id === patient.program_id : p.enterprise_id === homeEnterprise,
  );
  const [target, setTarget] = useState<string | null>(null);
  const [enrolled, setEnrolled] = useState<string[]>(patient.programs.map((p) => String(p.id)));
  const move = useChangeProgram(patient.id);
  const setPrograms = useSetPrograms(patient.id);

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={2} fz="h5">
          {t('programs.home')}
        </Title>
        <Text>{home?.name}</Text>
        <Text size="xs" c="dimmed">
          {t('programs.homeHint')}
        </Text>
      </Stack>
      <Stack gap={4}>
        <Title order={2} fz="h5">
          {t('programs.enrolled')}
        </Title>
        <Group gap="xs">
          {patient.programs.map((p) => (
            <Badge key={p.id} variant={p.id === patient.program_id ? 'filled' : 'light'}>
              {p.name}
            </Badge>
          ))}
        </Group>
      </Stack>
      {candidates.length > 1 ? (
        <>
          <Group align="flex-end" gap="xs">
            <MultiSelect
              label={t('programs.enrol')}
              data={candidates.map((p) => ({
                value: String(p.id),
                label: p.name,
                disabled: p.id === patient.program_id,
              }))}
              value={enrolled}
              onChange={(value) =>
                setEnrolled(
                  value.includes(String(patient.program_id)) ? value : [String(patient.program_id), ...value],
                )
              }
              w={360}
            />
            <Button
              variant="default"
              loading={setPrograms.isPending}
              onClick={() =>
                setPrograms.mutate(enrolled.map(Number), {
                  onSuccess: () => toast.success(t('toasts.programsUpdated')),
                  onError: (error) => toastErrors(error),
                })
              }
            >
              {t('programs.saveEnrolments')}
            </Button>
          </Group>
          <Group align="flex-end" gap="xs">
            <Select
              label={t('programs.move')}
              data={candidates
                .filter((p) => p.id !== patient.program_id)
                .map((p) => ({ value: String(p.id), label: p.name }))}
              value={target}
              onChange={setTarget}
              w={360}
            />
            <Button
              variant="default"
              disabled={!target}
              loading={move.isPending}
              onClick={() =>
                target &&
                move.mutate(
                  { old_program_id: patient.program_id, new_program_id: Number(target) },
                  {
                    onSuccess: () => toast.success(t('toasts.programChanged')),
                    onError: (error) => toastErrors(error),
                  },
                )
              }
            >
              {t('programs.moveAction')}
            </Button>
          </Group>
        </>
      ) : null}
    </Stack>
  );
}
