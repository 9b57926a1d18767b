import type { EnterpriseDetail } from '@caredeck/contracts';
import {
  Avatar,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import { IconBuildingHospital, IconPencil, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasAnyRole } from '../../../app/auth/roles';
import { Loaded } from '../../../shared/ui/Loaded';
import { TextField } from '../../../shared/ui/TextField';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useForm } from '../../../shared/ui/useForm';
import { required } from '../../../shared/ui/validators';
import { useCurrentUser } from '../../identity/api';
import { useActiveScope } from '../../tenancy/scope';
import {
  useEnterpriseDetail,
  useEnterpriseHistory,
  useLogo,
  useProgramDetail,
  useUpdateEnterprise,
} from '../api';
import '../i18n';
import { LogoField } from './LogoField';
import { ProgramModal } from './ProgramModal';

type ProgramRow = { id: number; name: string; type: string; patients: number; staff: number };

/**
 * /programs-management: the enterprise (name, logo, history) and its programs (type, modules, logo, counts)
 * for their administrators; enterprise administrators create programs.
 */
export function ProgramsPage() {
  const { t } = useTranslation('staff');
  const common = useTranslation().t;
  const scope = useActiveScope();
  const user = useCurrentUser();
  const enterpriseId = scope?.program?.enterprise_id ?? scope?.enterprise?.id ?? null;
  const enterprise = useEnterpriseDetail(enterpriseId);
  const single = useProgramDetail(enterpriseId === null ? (scope?.programId ?? null) : null);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [editingEnterprise, setEditingEnterprise] = useState(false);
  const isAdmin = !!user && !!scope && hasAnyRole(user, ['admin', 'enterprise_admin'], scope);
  const texts = {
    loading: common('common.loading'),
    error: t('programs.loadError'),
    retry: common('common.retry'),
  };
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz="h2">
            {t('programs.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('programs.hint')}
          </Text>
        </Stack>
        {enterprise.data?.data.can_manage ? (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
            {t('programs.new')}
          </Button>
        ) : null}
      </Group>
      {enterpriseId !== null ? (
        <Loaded query={enterprise} texts={texts}>
          {({ data }) => (
            <>
              <EnterpriseCard enterprise={data} onEdit={() => setEditingEnterprise(true)} />
              <ProgramTable
                rows={data.programs ?? []}
                canEdit={isAdmin}
                activeId={scope?.programId ?? 0}
                onEdit={setEditing}
              />
              {isAdmin ? <History enterpriseId={data.id} /> : null}
              {editingEnterprise ? (
                <EnterpriseModal enterprise={data} onClose={() => setEditingEnterprise(false)} />
              ) : null}
            </>
          )}
        </Loaded>
      ) : (
        <Loaded query={single} texts={texts}>
          {({ data }) => (
            <ProgramTable
              rows={[{ ...data, patients: data.counts.patients, staff: data.counts.staff }]}
              canEdit={data.can_manage}
              activeId={data.id}
              onEdit={setEditing}
            />
          )}
        </Loaded>
      )}
      {editing !== null ? (
        <ProgramModal programId={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
    </Stack>
  );
}

function EnterpriseCard({ enterprise, onEdit }: { enterprise: EnterpriseDetail; onEdit: () => void }) {
  const { t } = useTranslation('staff');
  const logo = useLogo('enterprise', enterprise.has_image ? enterprise.id : null, enterprise.updated_at);
  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between">
        <Group gap="md">
          <Avatar src={logo} alt={logo ? enterprise.name : undefined} radius="sm" size="lg">
            <IconBuildingHospital size={22} aria-hidden />
          </Avatar>
          <Stack gap={0}>
            <Text fw={600}>{enterprise.name}</Text>
            <Text size="sm" c="dimmed">
              {[
                t('programs.enterpriseCounts.programs', { count: enterprise.programs?.length ?? 0 }),
                t('programs.enterpriseCounts.admins', { count: enterprise.admins?.length ?? 0 }),
              ].join(' · ')}
            </Text>
          </Stack>
        </Group>
        {enterprise.can_manage ? (
          <Button variant="default" leftSection={<IconPencil size={16} aria-hidden />} onClick={onEdit}>
            {t('programs.editEnterprise')}
          </Button>
        ) : null}
      </Group>
    </Paper>
  );
}

function ProgramTable({
  rows,
  canEdit,
  activeId,
  onEdit,
}: {
  rows: ProgramRow[];
  canEdit: boolean;
  activeId: number;
  onEdit: (id: number) => void;
}) {
  const { t } = useTranslation('staff');
  if (rows.length === 0)
    return (
      <Text c="dimmed" ta="center" py="xl">
        {t('programs.empty')}
      </Text>
    );
  return (
    <Paper withBorder radius="md" p="md">
      <Table.ScrollContainer minWidth={520}>
        <Table verticalSpacing="xs" aria-label={t('programs.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('programs.name')}</Table.Th>
              <Table.Th>{t('programs.type')}</Table.Th>
              <Table.Th ta="right">{t('programs.patients')}</Table.Th>
              <Table.Th ta="right">{t('programs.staff')}</Table.Th>
              <Table.Th w={1} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((p) => (
              <Table.Tr key={p.id} data-testid="program-row">
                <Table.Td>
                  <Group gap="xs">
                    <Text size="sm">{p.name}</Text>
                    {p.id === activeId ? (
                      <Badge size="sm" variant="light">
                        {t('programs.current')}
                      </Badge>
                    ) : null}
                  </Group>
                </Table.Td>
                <Table.Td>{t(`programs.types.${p.type as 'monitoring'}`)}</Table.Td>
                <Table.Td ta="right">{p.patients.toLocaleString()}</Table.Td>
                <Table.Td ta="right">{p.staff.toLocaleString()}</Table.Td>
                <Table.Td>
                  {canEdit ? (
                    <Button
                      size="xs"
                      variant="subtle"
                      onClick={() => onEdit(p.id)}
                      aria-label={t('programs.editNamed', { name: p.name })}
                    >
                      {t('programs.editShort')}
                    </Button>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

function EnterpriseModal({ enterprise, onClose }: { enterprise: EnterpriseDetail; onClose: () => void }) {
  const { t } = useTranslation('staff');
  const form = useForm({ name: enterprise.name }, { name: [required] });
  const [image, setImage] = useState<string | null | undefined>(undefined);
  const current = useLogo('enterprise', enterprise.has_image ? enterprise.id : null, enterprise.updated_at);
  const update = useUpdateEnterprise(enterprise.id);
  const submit = form.onSubmit(async (values) => {
    try {
      const res = await update.mutateAsync({ name: values.name, ...(image !== undefined ? { image } : {}) });
      toast.success(res.message);
      onClose();
    } catch (error) {
      if (Object.keys(form.showServerErrors(error)).length === 0) toastErrors(error);
    }
  });
  return (
    <Modal opened onClose={onClose} title={t('programs.editEnterprise')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextField label={t('programs.enterpriseName')} required data-autofocus {...form.field('name')} />
          <LogoField label={t('logo.label')} current={current} value={image} onChange={setImage} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('add.cancel')}
            </Button>
            <Button type="submit" loading={update.isPending} data-testid="enterprise-save">
              {t('programs.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function History({ enterpriseId }: { enterpriseId: number }) {
  const { t, i18n } = useTranslation('staff');
  const history = useEnterpriseHistory(enterpriseId);
  const entries = history.data?.pages.flatMap((p) => p.data) ?? [];
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} fz="h4" mb="sm">
        {t('history.title')}
      </Title>
      {history.isPending ? (
        <Text size="sm" c="dimmed">
          {t('programs.loading')}
        </Text>
      ) : entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('history.empty')}
        </Text>
      ) : (
        <Timeline bulletSize={12} lineWidth={2}>
          {entries.map((e) => (
            <Timeline.Item key={e.id} title={t(`history.actions.${e.action as 'program.create'}`)}>
              <Text size="xs" c="dimmed">
                {[format.format(new Date(e.at)), e.actor?.name ?? t('history.system'), e.program?.name]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
            </Timeline.Item>
          ))}
        </Timeline>
      )}
      {history.hasNextPage ? (
        <Button
          variant="subtle"
          size="xs"
          mt="sm"
          loading={history.isFetchingNextPage}
          onClick={() => void history.fetchNextPage()}
        >
          {t('history.more')}
        </Button>
      ) : null}
    </Paper>
  );
}
