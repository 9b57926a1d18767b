import { Button, Menu } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../identity/api';
import { useStaffOptions } from '../../staff/api';
import '../i18n';

/**
 * Assign alerts: to me, to nobody, or to any staff member of the program (when one program is active).
 * `onAssign` gets the admin id, or null to unassign.
 */
export function AssignMenu({
  programId,
  onAssign,
  disabled,
}: {
  programId: number | null;
  onAssign: (adminId: number | null) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('alerts');
  const user = useCurrentUser();
  const staff = useStaffOptions(programId ?? 0).filter((s) => Number(s.value) !== user?.id);
  return (
    <Menu returnFocus>
      <Menu.Target>
        <Button size="xs" variant="default" disabled={disabled} rightSection={<IconChevronDown size={14} />}>
          {t('actions.assign')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown mah={320} style={{ overflowY: 'auto' }}>
        <Menu.Item onClick={() => onAssign(user?.id ?? null)}>{t('actions.assignToMe')}</Menu.Item>
        <Menu.Item onClick={() => onAssign(null)}>{t('actions.unassign')}</Menu.Item>
        {programId !== null && staff.length > 0 && (
          <>
            <Menu.Divider />
            <Menu.Label>{t('actions.assignTo')}</Menu.Label>
            {staff.map((s) => (
              <Menu.Item key={s.value} onClick={() => onAssign(Number(s.value))}>
                {s.label}
              </Menu.Item>
            ))}
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
