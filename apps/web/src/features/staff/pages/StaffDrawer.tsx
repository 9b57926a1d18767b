import { PROGRAM_STAFF_ROLES } from '@caredeck/contracts';
import { Badge, Button, Checkbox, Divider, Drawer, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Loaded } from '../../../shared/ui/Loaded';
import { ConfirmModal } from '../../../shared/ui/NameModal';
import { valueOrNotProvided } from '../../../shared/ui/notProvided';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useAdminDetail, useUpdateAdmin } from '../api';

/**
 * A staff member: contact, the programs both share with their roles, and for administrators the roles in
 * this program and the account's state (disable only for whoever administers every place they work).
 */
export function StaffDrawer({
  id,
  programId,
  canAdminister,
  selfId,
  onClose,
}: {
  id: number | null;
  programId: number;
  canAdminister: boolean;
  selfId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation('staff');
  const common = useTranslation().t;
  const detail = useAdminDetail(id);
  const member = detail.data?.data;
  return (
    <Drawer opened={id !== null} onClose={onClose} position="right" title={member?.name ?? t('drawer.title')}>
      <Loaded
        query={detail}
        texts={{
          loading: common('common.loading'),
          error: t('drawer.loadError'),
          retry: common('common.retry'),
        }}
      >
        {(data) => (
          <MemberDetail
            key={`${data.data.id}-${data.data.programs.map((p) => p.roles.join()).join()}`}
            member={data.data}
            programId={programId}
            canAdminister={canAdminister && data.data.id !== selfId}
          />
        )}
      </Loaded>
    </Drawer>
  );
}

type Member = NonNullable<ReturnType<typeof useAdminDetail>['data']>['data'];

function MemberDetail({
  member,
  programId,
  canAdminister,
}: {
  member: Member;
  programId: number;
  canAdminister: boolean;
}) {
  const { t } = useTranslation('staff');
  const here = member.programs.find((p) => p.id === programId);
  const [roles, setRoles] = useState<string[]>(here?.roles ?? []);
  const [confirming, setConfirming] = useState(false);
  const update = useUpdateAdmin(member.id);
  const saveRoles = async () => {
    try {
      const res = await update.mutateAsync({
        program_id: programId,
        roles: roles as (typeof PROGRAM_STAFF_ROLES)[number][],
      });
      toast.success(res.message);
    } catch (error) {
      toastErrors(error);
    }
  };
  return (
    <Stack gap="md" data-testid="staff-drawer">
      <Group gap="xs">
        {member.disabled ? (
          <Badge color="danger" variant="light">
            {t('state.disabled')}
          </Badge>
        ) : (
          <Badge variant="light">{t('state.active')}</Badge>
        )}
        {member.mfa_enabled ? <Badge variant="outline">{t('drawer.mfa')}</Badge> : null}
        {member.must_change_password ? <Badge variant="outline">{t('drawer.invited')}</Badge> : null}
      </Group>
      <Stack gap={4}>
        <Text size="sm">
          <Text span c="dimmed">{`${t('add.email')}: `}</Text>
          {member.email}
        </Text>
        <Text size="sm">
          <Text span c="dimmed">{`${t('add.phone')}: `}</Text>
          {valueOrNotProvided(member.phone_number)}
        </Text>
        <Text size="sm">
          <Text span c="dimmed">{`${t('add.jobTitle')}: `}</Text>
          {valueOrNotProvided(member.title)}
        </Text>
      </Stack>
      <Divider label={t('drawer.programs')} labelPosition="left" />
      <Stack gap={6}>
        {member.enterprises.map((e) => (
          <Group key={`e${e.id}`} justify="space-between" wrap="nowrap">
            <Text size="sm">{e.name}</Text>
            <Badge variant="light">{t('roles.enterprise_admin')}</Badge>
          </Group>
        ))}
        {member.programs.map((p) => (
          <Group key={p.id} justify="space-between" wrap="nowrap" align="flex-start">
            <Text size="sm">{p.name}</Text>
            <Group gap={4} justify="flex-end">
              {p.roles.map((r) => (
                <Badge key={r} variant="light">
                  {t(`roles.${r}`)}
                </Badge>
              ))}
            </Group>
          </Group>
        ))}
      </Stack>
      {canAdminister ? (
        <>
          <Divider label={t('drawer.rolesHere')} labelPosition="left" />
          <Checkbox.Group value={roles} onChange={setRoles} label={t('drawer.rolesHere')}>
            <Stack gap={6} mt={4}>
              {PROGRAM_STAFF_ROLES.map((r) => (
                <Checkbox key={r} value={r} label={t(`roles.${r}`)} />
              ))}
            </Stack>
          </Checkbox.Group>
          <Text size="xs" c="dimmed">
            {t('drawer.rolesHint')}
          </Text>
          <Group justify="flex-end">
            <Button
              onClick={() => void saveRoles()}
              loading={update.isPending}
              data-testid="staff-roles-save"
            >
              {t('drawer.saveRoles')}
            </Button>
          </Group>
          {member.can_manage ? (
            <>
              <Divider label={t('drawer.account')} labelPosition="left" />
              <Group justify="space-between">
                <Text size="sm" c="dimmed" maw={260}>
                  {member.disabled ? t('drawer.enableHint') : t('drawer.disableHint')}
                </Text>
                <Button
                  variant="light"
                  color={member.disabled ? 'teal' : 'danger'}
                  onClick={() => setConfirming(true)}
                  data-testid="staff-toggle"
                >
                  {member.disabled ? t('drawer.enable') : t('drawer.disable')}
                </Button>
              </Group>
            </>
          ) : (
            <Text size="xs" c="dimmed">
              {t('drawer.elsewhere')}
            </Text>
          )}
        </>
      ) : null}
      {confirming ? (
        <ConfirmModal
          title={member.disabled ? t('drawer.enable') : t('drawer.disable')}
          body={
            <Text size="sm">
              {t(member.disabled ? 'drawer.enableConfirm' : 'drawer.disableConfirm', { name: member.name })}
            </Text>
          }
          confirm={member.disabled ? t('drawer.enable') : t('drawer.disable')}
          onClose={() => setConfirming(false)}
          onConfirm={() => update.mutateAsync({ disabled: !member.disabled })}
        />
      ) : null}
    </Stack>
  );
}
