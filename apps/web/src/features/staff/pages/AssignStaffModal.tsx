import { Button, Group, Modal, MultiSelect, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useAssignAdmins, useEnterpriseStaff } from '../api';

/** People of the enterprise who do not work in this program yet join it with its type's roles (POST assign-admins). */
export function AssignStaffModal({
  enterpriseId,
  programId,
  present,
  onClose,
}: {
  enterpriseId: number;
  programId: number;
  present: ReadonlySet<number>;
  onClose: () => void;
}) {
  const { t } = useTranslation('staff');
  const staff = useEnterpriseStaff(enterpriseId);
  const assign = useAssignAdmins();
  const [chosen, setChosen] = useState<string[]>([]);
  const options = (staff.data?.data ?? [])
    .filter((s) => !present.has(s.id))
    .map((s) => ({ value: String(s.id), label: `${s.family_name}, ${s.given_name}` }));
  const submit = async () => {
    try {
      const res = await assign.mutateAsync({ program_id: programId, admin_ids: chosen.map(Number) });
      toast.success(res.message);
      onClose();
    } catch (error) {
      toastErrors(error);
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('assign.title')}>
      <Stack>
        <Text size="sm" c="dimmed">
          {t('assign.hint')}
        </Text>
        <MultiSelect
          label={t('assign.people')}
          data={options}
          value={chosen}
          onChange={setChosen}
          searchable
          nothingFoundMessage={t('assign.nobody')}
          data-autofocus
          data-testid="assign-people"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('add.cancel')}
          </Button>
          <Button
            onClick={() => void submit()}
            disabled={chosen.length === 0}
            loading={assign.isPending}
            data-testid="assign-save"
          >
            {t('assign.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
