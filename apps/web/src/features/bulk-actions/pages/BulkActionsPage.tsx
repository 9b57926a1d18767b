import {
  BILLING_STATUSES,
  BULK_ACTION_STATES,
  BULK_ACTIONS,
  type BulkActionJob,
  type BulkActionState,
  type BulkActionType,
  PATIENT_STATUSES,
} from '@caredeck/contracts';
import {
  Alert,
  Badge,
  Button,
  Drawer,
  Group,
  Loader,
  Modal,
  MultiSelect,
  Pagination,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { hasAnyRole } from '../../../app/auth/roles';
import { firstFieldErrors } from '../../../shared/api-client';
import { ConfirmModal } from '../../../shared/ui/NameModal';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useCohorts } from '../../cohorts/api';
import { useCurrentUser } from '../../identity/api';
import { useStaffOptions } from '../../staff/api';
import { useActiveScope } from '../../tenancy/scope';
import { useBulkAction, useBulkActionMutations, useBulkActions, useProgramPatients } from '../api';
import '../i18n';

const STATE_COLORS: Record<BulkActionState, string> = {
  assigned: 'primary',
  approved: 'success',
  cancelled: 'gray',
};

/** The action's value in words: a status, the cohort's or colleague's name, or "nobody". */
function useValueLabel(programId: number) {
  const { t } = useTranslation('bulkActions');
  const common = useTranslation().t;
  const cohorts = useCohorts(programId, { page: 1, keyword: '' }, programId > 0);
  const staff = useStaffOptions(programId);
  return (job: Pick<BulkActionJob, 'action' | 'value'>) => {
    switch (job.action) {
      case 'patient_status':
        return common(`patients.status.${job.value as (typeof PATIENT_STATUSES)[number]}`);
      case 'billing_status':
        return t(`billingStatuses.${job.value as (typeof BILLING_STATUSES)[number]}`);
      case 'add_to_cohort':
        return (
          cohorts.data?.data.find((c) => c.id === job.value)?.name ?? t('cohortNumber', { id: job.value })
        );
      case 'assign_admin':
        return job.value === null
          ? t('nobody')
          : (staff.find((s) => s.value === String(job.value))?.label ?? t('staffNumber', { id: job.value }));
    }
  };
}

/** "2 patients · 2 done · 0 failed": each count with its own singular and plural. */
function useCountsLine() {
  const { t } = useTranslation('bulkActions');
  return (counts: BulkActionJob['counts']) =>
    [
      t('counts.patients', { count: counts.total }),
      t('counts.done', { count: counts.done }),
      t('counts.failed', { count: counts.failed }),
    ].join(' · ');
}

/**
 * /bulk-events: the program's bulk actions. The care team proposes one change for many patients; an
 * administrator approves it (it runs at once) or cancels it; each patient's outcome is kept and failed ones can
 * be run again.
 */
export function BulkActionsPage() {
  const { t, i18n } = useTranslation('bulkActions');
  const countsLine = useCountsLine();
  const scope = useActiveScope();
  const user = useCurrentUser();
  const programId = scope?.programId ?? 0;
  const [params, setParams] = useSearchParams();
  const state = (BULK_ACTION_STATES as readonly string[]).includes(params.get('state') ?? '')
    ? (params.get('state') as BulkActionState)
    : '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useBulkActions(programId, state, page);
  // The worklist hands its selection over in the navigation state: the proposal opens with those patients.
  const location = useLocation();
  const navigate = useNavigate();
  const handed = (location.state as { proposePatients?: number[] } | null)?.proposePatients ?? null;
  const [creating, setCreating] = useState(handed !== null);
  const [initialPatients] = useState<string[]>(() => (handed ?? []).map(String));
  useEffect(() => {
    // Forget the hand-over so a reload or Back does not open the proposal again.
    if (handed) void navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [handed, navigate, location.pathname, location.search]);
  const [open, setOpen] = useState<string | null>(null);
  const valueLabel = useValueLabel(programId);
  const canApprove = Boolean(user && scope && hasAnyRole(user, ['admin', 'enterprise_admin'], scope));
  const date = new Intl.DateTimeFormat(i18n.language === 'en' ? 'en-US' : i18n.language, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <div>
          <Title order={1} fz="h2">
            {i18n.t('nav.bulkActions')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('subtitle')}
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          {t('new')}
        </Button>
      </Group>
      <SegmentedControl
        aria-label={t('stateFilter')}
        value={state}
        onChange={(value) =>
          setParams((current) => {
            const next = new URLSearchParams(current);
            if (value) next.set('state', value);
            else next.delete('state');
            next.delete('page');
            return next;
          })
        }
        data={[
          { value: '', label: t('states.all') },
          ...BULK_ACTION_STATES.map((s) => ({ value: s, label: t(`states.${s}`) })),
        ]}
        w="fit-content"
      />
      {list.isError && !list.data ? (
        <Alert color="danger" role="alert" title={t('loadError')}>
          <Button size="xs" variant="light" color="danger" onClick={() => void list.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : !list.data ? (
        <Group justify="center" py="xl">
          <Loader aria-label={t('loading')} />
        </Group>
      ) : list.data.data.length === 0 ? (
        <Paper withBorder p="lg" radius="md">
          <Text c="dimmed" ta="center">
            {t('empty')}
          </Text>
        </Paper>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table highlightOnHover data-testid="bulk-actions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('columns.action')}</Table.Th>
                <Table.Th>{t('columns.patients')}</Table.Th>
                <Table.Th>{t('columns.state')}</Table.Th>
                <Table.Th>{t('columns.proposed')}</Table.Th>
                <Table.Th>{t('columns.decided')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.data.map((job) => (
                <Table.Tr key={job.job_id} data-testid="bulk-action-row">
                  <Table.Td>
                    <Button variant="subtle" px={4} onClick={() => setOpen(job.job_id)}>
                      {t(`actions.${job.action}`, { value: valueLabel(job) })}
                    </Button>
                  </Table.Td>
                  <Table.Td>{countsLine(job.counts)}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={STATE_COLORS[job.state]}>
                      {t(`states.${job.state}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {job.created_by.name}
                    <Text size="xs" c="dimmed">
                      {date.format(new Date(job.created_at))}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {job.decided_by ? job.decided_by.name : '–'}
                    {job.decided_at && (
                      <Text size="xs" c="dimmed">
                        {date.format(new Date(job.decided_at))}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list.data && list.data.last_page > 1 && (
        <Group justify="flex-end">
          <Pagination
            total={list.data.last_page}
            value={page}
            onChange={(p) =>
              setParams((current) => {
                const next = new URLSearchParams(current);
                next.set('page', String(p));
                return next;
              })
            }
          />
        </Group>
      )}
      {creating && (
        <CreateModal
          programId={programId}
          initialPatients={initialPatients}
          onClose={() => setCreating(false)}
          onCreated={setOpen}
        />
      )}
      <JobDrawer
        programId={programId}
        jobId={open}
        canApprove={canApprove}
        valueLabel={valueLabel}
        onClose={() => setOpen(null)}
      />
    </Stack>
  );
}

function JobDrawer({
  programId,
  jobId,
  canApprove,
  valueLabel,
  onClose,
}: {
  programId: number;
  jobId: string | null;
  canApprove: boolean;
  valueLabel: (job: BulkActionJob) => string;
  onClose: () => void;
}) {
  const { t } = useTranslation('bulkActions');
  const countsLine = useCountsLine();
  const detail = useBulkAction(programId, jobId);
  const m = useBulkActionMutations();
  const [confirming, setConfirming] = useState<'approve' | 'cancel' | null>(null);
  const job = detail.data?.data[0];
  const rerun = (only: 'failed' | 'all') =>
    m.rerun.mutate(
      { jobId: jobId!, only },
      { onSuccess: (r) => toast.success(r.message), onError: (error) => toastErrors(error) },
    );
  return (
    <Drawer opened={jobId !== null} onClose={onClose} position="right" size="lg" title={t('drawerTitle')}>
      {!job ? (
        <Loader aria-label={t('loading')} />
      ) : (
        <Stack>
          <Group gap="xs">
            <Text fw={600}>{t(`actions.${job.action}`, { value: valueLabel(job) })}</Text>
            <Badge variant="light" color={STATE_COLORS[job.state]}>
              {t(`states.${job.state}`)}
            </Badge>
          </Group>
          {job.note && <Text size="sm">{job.note}</Text>}
          <Text size="sm" c="dimmed">
            {countsLine(job.counts)}
          </Text>
          {canApprove && job.state === 'assigned' && (
            <Group>
              <Button onClick={() => setConfirming('approve')} data-testid="bulk-approve">
                {t('approve')}
              </Button>
              <Button variant="default" onClick={() => setConfirming('cancel')}>
                {t('cancelAction')}
              </Button>
            </Group>
          )}
          {!canApprove && job.state === 'assigned' && (
            <Text size="sm" c="dimmed">
              {t('waitingForAdmin')}
            </Text>
          )}
          {canApprove && job.state === 'approved' && (
            <Group>
              <Button
                variant="default"
                disabled={job.counts.failed === 0}
                onClick={() => rerun('failed')}
                loading={m.rerun.isPending}
              >
                {t('rerunFailed')}
              </Button>
              <Button variant="default" onClick={() => rerun('all')} loading={m.rerun.isPending}>
                {t('rerunAll')}
              </Button>
            </Group>
          )}
          <Table data-testid="bulk-action-patients">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('columns.patient')}</Table.Th>
                <Table.Th>{t('columns.outcome')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(detail.data?.patients ?? []).map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>{p.name}</Table.Td>
                  <Table.Td>
                    <Badge
                      variant="light"
                      color={p.outcome === 'done' ? 'success' : p.outcome === 'failed' ? 'danger' : 'gray'}
                    >
                      {t(`outcomes.${p.outcome}`)}
                    </Badge>
                    {p.error && (
                      <Text size="xs" c="dimmed">
                        {p.error}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
      {confirming && job && (
        <ConfirmModal
          title={t(confirming === 'approve' ? 'confirmApproveTitle' : 'confirmCancelTitle')}
          body={
            <Text size="sm">
              {t(confirming === 'approve' ? 'confirmApproveBody' : 'confirmCancelBody', {
                action: t(`actions.${job.action}`, { value: valueLabel(job) }),
                count: job.counts.total,
              })}
            </Text>
          }
          confirm={t(confirming === 'approve' ? 'approve' : 'cancelAction')}
          onClose={() => setConfirming(null)}
          onConfirm={() => (confirming === 'approve' ? m.approve : m.cancel).mutateAsync(job.job_id)}
        />
      )}
    </Drawer>
  );
}

function CreateModal({
  programId,
  initialPatients,
  onClose,
  onCreated,
}: {
  programId: number;
  initialPatients: string[];
  onClose: () => void;
  onCreated: (jobId: string) => void;
}) {
  const { t } = useTranslation('bulkActions');
  const common = useTranslation().t;
  const patients = useProgramPatients(programId);
  const cohorts = useCohorts(programId, { page: 1, keyword: '' }, programId > 0);
  const staff = useStaffOptions(programId);
  const { create } = useBulkActionMutations();
  const [action, setAction] = useState<BulkActionType>('patient_status');
  const [value, setValue] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string[]>(initialPatients);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const values: { value: string; label: string }[] =
    action === 'patient_status'
      ? PATIENT_STATUSES.map((s) => ({ value: s, label: common(`patients.status.${s}`) }))
      : action === 'billing_status'
        ? BILLING_STATUSES.map((s) => ({ value: s, label: t(`billingStatuses.${s}`) }))
        : action === 'add_to_cohort'
          ? (cohorts.data?.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))
          : [{ value: 'none', label: t('nobody') }, ...staff];
  const submit = () => {
    const next: Record<string, string> = {};
    if (!value) next.value = t('valueRequired');
    if (chosen.length === 0) next.users_id = t('patientsRequired');
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const wire =
      action === 'add_to_cohort' || action === 'assign_admin'
        ? value === 'none'
          ? null
          : Number(value)
        : value;
    create.mutate(
      { program_id: programId, action, value: wire, users_id: chosen.map(Number), note: note.trim() || null },
      {
        onSuccess: (r) => {
          toast.success(r.message);
          onClose();
          onCreated(r.data.job_id);
        },
        onError: (error) => {
          const fields = firstFieldErrors(error);
          if (fields) setErrors(fields);
          else toastErrors(error);
        },
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={t('new')} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        noValidate
      >
        <Stack>
          <Select
            label={t('fields.action')}
            value={action}
            onChange={(v) => {
              if (!v) return;
              setAction(v as BulkActionType);
              setValue(null);
            }}
            data={BULK_ACTIONS.map((a) => ({ value: a, label: t(`actionNames.${a}`) }))}
            allowDeselect={false}
          />
          <Select
            label={t(`valueLabels.${action}`)}
            value={value}
            onChange={setValue}
            data={values}
            searchable
            required
            error={errors.value}
          />
          <MultiSelect
            label={t('fields.patients')}
            description={t('fields.patientsHint')}
            value={chosen}
            onChange={setChosen}
            data={(patients.data?.data ?? []).map((p) => ({
              value: String(p.id),
              label: `${p.last_name}, ${p.first_name}${p.mrn ? ` (${p.mrn})` : ''}`,
            }))}
            searchable
            limit={50}
            maxValues={5000}
            required
            error={errors.users_id}
            disabled={!patients.data}
          />
          <Textarea
            label={t('fields.note')}
            value={note}
            maxLength={500}
            onChange={(e) => setNote(e.currentTarget.value)}
          />
          <Text size="sm" c="dimmed">
            {t('approvalHint')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('close')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('propose')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
