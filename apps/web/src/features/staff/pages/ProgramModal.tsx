import { ADMINISTRATION_MESSAGES, MODULES, PROGRAM_TYPES, type ProgramType } from '@caredeck/contracts';
import { Button, Checkbox, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firstFieldErrors } from '../../../shared/api-client';
import { TextField } from '../../../shared/ui/TextField';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useForm } from '../../../shared/ui/useForm';
import { required } from '../../../shared/ui/validators';
import { useLogo, useProgramDetail, useSaveProgram } from '../api';
import { LogoField } from './LogoField';

/** Create a program (POST programs) or change one (POST programs/{id}/update): name, slug, type, modules, logo. */
export function ProgramModal({ programId, onClose }: { programId: number | null; onClose: () => void }) {
  const { t } = useTranslation('staff');
  const detail = useProgramDetail(programId);
  if (programId !== null && !detail.data)
    return (
      <Modal opened onClose={onClose} title={t('programs.edit')}>
        <Text size="sm" c="dimmed">
          {detail.isError ? t('programs.loadError') : t('programs.loading')}
        </Text>
      </Modal>
    );
  return <ProgramForm programId={programId} program={detail.data?.data ?? null} onClose={onClose} />;
}

type Program = NonNullable<ReturnType<typeof useProgramDetail>['data']>['data'];

function ProgramForm({
  programId,
  program,
  onClose,
}: {
  programId: number | null;
  program: Program | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('staff');
  const form = useForm({ name: program?.name ?? '', slug: program?.slug ?? '' }, { name: [required] });
  const [type, setType] = useState<ProgramType>(program?.type ?? 'monitoring');
  const [modules, setModules] = useState<string[]>(program?.modules ?? [...MODULES]);
  const [image, setImage] = useState<string | null | undefined>(undefined);
  const current = useLogo('program', program?.has_image ? program.id : null, program?.updated_at ?? '');
  const save = useSaveProgram(programId);
  const submit = form.onSubmit(async (values) => {
    try {
      const res = await save.mutateAsync({
        name: values.name,
        ...(values.slug ? { slug: values.slug } : {}),
        type,
        modules: modules as (typeof MODULES)[number][],
        ...(image !== undefined ? { image } : {}),
      });
      toast.success(res.message);
      onClose();
    } catch (error) {
      const fields = form.showServerErrors(error);
      const other = firstFieldErrors(error);
      if (other?.image) toast.error(other.image);
      if (Object.keys(fields).length > 0 || other?.image) return;
      if (programId === null) toast.error(ADMINISTRATION_MESSAGES.unableToCreate);
      else toastErrors(error);
    }
  });
  return (
    <Modal opened onClose={onClose} title={programId === null ? t('programs.new') : t('programs.edit')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextField label={t('programs.name')} required data-autofocus {...form.field('name')} />
          <TextField
            label={t('programs.slug')}
            description={t('programs.slugHint')}
            {...form.field('slug')}
          />
          <Select
            label={t('programs.type')}
            data={PROGRAM_TYPES.map((v) => ({ value: v, label: t(`programs.types.${v}`) }))}
            value={type}
            onChange={(v) => v && setType(v as ProgramType)}
            allowDeselect={false}
          />
          <Checkbox.Group label={t('programs.modules')} value={modules} onChange={setModules}>
            <Group gap="md" mt={6}>
              {MODULES.map((m) => (
                <Checkbox key={m} value={m} label={t(`programs.moduleNames.${m}`)} />
              ))}
            </Group>
          </Checkbox.Group>
          <LogoField label={t('logo.label')} current={current} value={image} onChange={setImage} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('add.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="program-save">
              {programId === null ? t('programs.create') : t('programs.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
