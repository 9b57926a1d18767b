import type { PatientRecord, Script } from '@caredeck/contracts';
import { Button, Group, Modal, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api-client';
import { DateField } from '../../../shared/ui/DateField';
import { identityDate } from '../../../shared/ui/notProvided';
import { TextAreaField } from '../../../shared/ui/TextAreaField';
import { TextField } from '../../../shared/ui/TextField';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useForm } from '../../../shared/ui/useForm';
import { required } from '../../../shared/ui/validators';
import { useSaveScript } from '../api';
import '../i18n';
import { useCanChangePlan } from './planAccess';

type Values = {
  drug_name: string;
  sig: string;
  quantity: string;
  refills: string;
  prescriber: string;
  written_at: string;
};

/** The patient's prescriptions (scripts): listed, added and changed through PUT …/users/{id}/scripts. */
export function Prescriptions({
  scripts,
  patient,
  programId,
}: {
  scripts: Script[];
  patient: PatientRecord;
  programId: number;
}) {
  const { t } = useTranslation('patientRecord');
  const [editing, setEditing] = useState<Script | 'new' | null>(null);
  const canChange = useCanChangePlan();
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={2} fz="h5">
          {t('medication.scripts')}
        </Title>
        {canChange ? (
          <Button
            size="xs"
            variant="default"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => setEditing('new')}
            data-testid="script-add"
          >
            {t('scripts.add')}
          </Button>
        ) : null}
      </Group>
      {scripts.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('medication.noScripts')}
        </Text>
      ) : (
        <Table data-testid="scripts">
          <Table.Tbody>
            {scripts.map((s) => (
              <Table.Tr key={s.id} data-testid="script">
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {s.drug_name}
                  </Text>
                  {s.sig ? (
                    <Text size="xs" c="dimmed">
                      {s.sig}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Text size="xs">
                    {[
                      s.quantity !== null ? t('scripts.quantityShort', { count: s.quantity }) : null,
                      s.refills !== null ? t('scripts.refillsShort', { count: s.refills }) : null,
                      s.prescriber,
                      s.written_at ? identityDate(s.written_at) : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </Text>
                </Table.Td>
                {canChange ? (
                  <Table.Td>
                    <Button size="compact-xs" variant="subtle" onClick={() => setEditing(s)}>
                      {t('scripts.edit')}
                    </Button>
                  </Table.Td>
                ) : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('scripts.add') : t('scripts.edit')}
      >
        {editing ? (
          <ScriptForm
            script={editing === 'new' ? null : editing}
            patient={patient}
            programId={programId}
            onDone={() => setEditing(null)}
          />
        ) : null}
      </Modal>
    </Stack>
  );
}

function ScriptForm({
  script,
  patient,
  programId,
  onDone,
}: {
  script: Script | null;
  patient: PatientRecord;
  programId: number;
  onDone: () => void;
}) {
  const { t } = useTranslation('patientRecord');
  const save = useSaveScript(programId, patient.id);
  const form = useForm<Values>(
    {
      drug_name: script?.drug_name ?? '',
      sig: script?.sig ?? '',
      quantity: script?.quantity?.toString() ?? '',
      refills: script?.refills?.toString() ?? '',
      prescriber: script?.prescriber ?? '',
      written_at: script?.written_at ?? '',
    },
    { drug_name: [required] },
  );
  const submit = form.onSubmit(async (v) => {
    try {
      await save.mutateAsync({
        ...(script ? { id: script.id } : {}),
        drug_name: v.drug_name,
        sig: v.sig.trim() || null,
        quantity: v.quantity ? Number(v.quantity) : null,
        refills: v.refills ? Number(v.refills) : null,
        prescriber: v.prescriber.trim() || null,
        written_at: v.written_at || null,
      });
      toast.success(t('scripts.saved'));
      onDone();
    } catch (error) {
      // The body's errors are named scripts.0.<field>.
      const shown: Partial<Values> = {};
      if (isApiError(error))
        for (const [name, messages] of Object.entries(error.fieldErrors)) {
          const field = name.split('.').at(-1) as keyof Values;
          if (field in form.values && messages[0]) shown[field] ??= messages[0];
        }
      if (Object.keys(shown).length > 0) form.setErrors(shown);
      else toastErrors(error);
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextField
          label={t('medication.drug')}
          required
          {...form.field('drug_name')}
          data-testid="script-drug"
        />
        <TextAreaField
          label={t('scripts.sig')}
          autosize
          minRows={2}
          maxLength={1000}
          {...form.field('sig')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextField
            label={t('medication.quantity')}
            type="number"
            min={1}
            {...form.field('quantity')}
            data-testid="script-quantity"
          />
          <TextField label={t('scripts.refills')} type="number" min={0} max={99} {...form.field('refills')} />
          <TextField label={t('scripts.prescriber')} {...form.field('prescriber')} />
          <DateField label={t('scripts.written')} {...form.field('written_at')} />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="script-save">
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
