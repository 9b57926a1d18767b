import { CARE_ROLES, type PipelineStage, type PipelineUser } from '@caredeck/contracts';
import {
  ActionIcon,
  Anchor,
  Button,
  Drawer,
  Group,
  Menu,
  Modal,
  Paper,
  ScrollArea,
  Select,
  Stack,
  Text,
  TextInput,
  Timeline,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconDots, IconDownload, IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { hasAnyRole } from '../../../app/auth/roles';
import { usePageTitle } from '../../../app/documentTitle';
import { Loaded } from '../../../shared/ui/Loaded';
import { ConfirmModal, NameModal } from '../../../shared/ui/NameModal';
import { toast, toastErrors, toastErrorsOr } from '../../../shared/ui/toasts';
import { useCurrentUser } from '../../identity/api';
import { usePatientSearch } from '../../patients/finder';
import { useActiveScope } from '../../tenancy/scope';
import {
  type Act,
  downloadReport,
  downloadStageReport,
  PIPELINES_KEY,
  pipelineCalls,
  usePatientJourney,
  usePipeline,
  usePipelines,
} from '../api';
import '../i18n';

type Dialog =
  | { kind: 'stage'; stage: PipelineStage | null }
  | { kind: 'deleteStage'; stage: PipelineStage }
  | { kind: 'complete'; user: PipelineUser };

/**
 * /pipeline/{pipeline_id}: the board. One column per stage with its patients (longest there first); a
 * patient moves with "Move to" (keyboard and screen readers alike), opens a history of stays and events,
 * completes (optionally into another pipeline). Stages are added, renamed, reordered and deleted here.
 */
export function PipelinePage() {
  const { t, i18n } = useTranslation('pipelines');
  const scope = useActiveScope();
  const user = useCurrentUser();
  const programId = scope && !scope.enterpriseScope ? scope.programId : 0;
  const pipelineId = Number(useParams().pipeline_id);
  const pipeline = usePipeline(programId, pipelineId);
  const canEdit = Boolean(user && scope && hasAnyRole(user, CARE_ROLES, scope));
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [journey, setJourney] = useState<PipelineUser | null>(null);
  const [month, setMonth] = useState('');
  const queryClient = useQueryClient();
  const reload = () => queryClient.invalidateQueries({ queryKey: PIPELINES_KEY });
  usePageTitle(pipeline.data?.data.name ?? '');
  const texts = { loading: t('loading'), error: t('loadError'), retry: t('retry') };

  const act: Act = async (call) => {
    try {
      toast.success((await call()).message);
    } catch (error) {
      toastErrors(error);
    } finally {
      await reload();
    }
  };

  const back = (
    <Anchor component={Link} to="/pipelines" size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} aria-hidden />
        {t('title')}
      </Group>
    </Anchor>
  );
  // In an enterprise's scope (all its programs) the board's program is not known: without this it waited for ever.
  if (programId === 0)
    return (
      <Stack gap="md">
        {back}
        <Text>{t('chooseProgram')}</Text>
      </Stack>
    );

  return (
    <Stack gap="md">
      {back}
      <Loaded query={pipeline} texts={texts}>
        {({ data: p }) => {
          const byStage = new Map<number, PipelineUser[]>();
          for (const u of p.users ?? []) byStage.set(u.stage_id, [...(byStage.get(u.stage_id) ?? []), u]);
          return (
            <Stack gap="md">
              <Group justify="space-between" wrap="wrap" align="flex-end">
                <div>
                  <Title order={1} fz="h2" data-testid="pipeline-title">
                    {p.name}
                  </Title>
                  <Text c="dimmed" size="sm">
                    {[
                      t('counts.active', { count: p.users_count }),
                      t('counts.completed', { count: p.completed_count }),
                    ].join(' · ')}
                  </Text>
                </div>
                <Group gap="xs" align="flex-end">
                  {canEdit && <AddPatients pipelineId={p.id} onAdded={reload} />}
                  {canEdit && (
                    <Button
                      variant="default"
                      leftSection={<IconPlus size={16} />}
                      onClick={() => setDialog({ kind: 'stage', stage: null })}
                    >
                      {t('board.addStage')}
                    </Button>
                  )}
                  <TextInput
                    label={t('board.month')}
                    placeholder={t('board.monthPlaceholder')}
                    value={month}
                    onChange={(e) => setMonth(e.currentTarget.value)}
                    w={110}
                  />
                  <Button
                    variant="default"
                    leftSection={<IconDownload size={16} />}
                    onClick={() =>
                      void downloadReport(programId, p.id, month.trim())
                        .then((file) => toast.success(t('board.downloaded', { file })))
                        .catch((error) => toastErrors(error))
                    }
                  >
                    {t('board.report')}
                  </Button>
                  <Button
                    variant="default"
                    leftSection={<IconDownload size={16} />}
                    onClick={() =>
                      void downloadStageReport(p.id)
                        .then((file) => toast.success(t('board.downloaded', { file })))
                        .catch((error) => toastErrors(error))
                    }
                  >
                    {t('board.stageReport')}
                  </Button>
                </Group>
              </Group>
              <ScrollArea type="auto" offsetScrollbars>
                <Group align="flex-start" wrap="nowrap" gap="sm" pb="sm">
                  {p.stages.map((stage, i) => {
                    const users = byStage.get(stage.id) ?? [];
                    return (
                      <Paper
                        key={stage.id}
                        withBorder
                        radius="md"
                        p="sm"
                        w={280}
                        miw={280}
                        component="section"
                        aria-labelledby={`stage-${stage.id}`}
                        data-testid="pipeline-stage"
                      >
                        <Group justify="space-between" wrap="nowrap" mb="xs">
                          <div>
                            <Text fw={600} id={`stage-${stage.id}`}>
                              {stage.name}
                            </Text>
                            <Text size="xs" c="dimmed" data-testid="pipeline-stage-count">
                              {t('board.patients', { count: stage.users })}
                              {stage.rule ? ` · ${t('board.rule', { name: stage.rule.name })}` : ''}
                            </Text>
                          </div>
                          {canEdit && (
                            <Menu position="bottom-end">
                              <Menu.Target>
                                <ActionIcon
                                  variant="subtle"
                                  color="gray"
                                  aria-label={t('board.stageMenu', { name: stage.name })}
                                >
                                  <IconDots size={16} />
                                </ActionIcon>
                              </Menu.Target>
                              <Menu.Dropdown>
                                <Menu.Item onClick={() => setDialog({ kind: 'stage', stage })}>
                                  {t('board.rename')}
                                </Menu.Item>
                                <Menu.Item
                                  disabled={i === 0}
                                  onClick={() => void act(() => pipelineCalls.moveStage(p.id, stage.id, i))}
                                >
                                  {t('board.moveLeft')}
                                </Menu.Item>
                                <Menu.Item
                                  disabled={i === p.stages.length - 1}
                                  onClick={() =>
                                    void act(() => pipelineCalls.moveStage(p.id, stage.id, i + 2))
                                  }
                                >
                                  {t('board.moveRight')}
                                </Menu.Item>
                                <Menu.Item
                                  color="red"
                                  onClick={() => setDialog({ kind: 'deleteStage', stage })}
                                >
                                  {t('board.deleteStage')}
                                </Menu.Item>
                              </Menu.Dropdown>
                            </Menu>
                          )}
                        </Group>
                        <Stack gap="xs">
                          {users.length === 0 && (
                            <Text size="sm" c="dimmed">
                              {t('board.emptyStage')}
                            </Text>
                          )}
                          {users.map((u) => (
                            <Paper
                              key={u.patient.id}
                              withBorder
                              p="xs"
                              radius="sm"
                              data-testid="pipeline-patient"
                            >
                              <Anchor component={Link} to={`/patient/${u.patient.id}`} size="sm" fw={500}>
                                {u.patient.name}
                              </Anchor>
                              <Text size="xs" c="dimmed">
                                {u.patient.mrn ? `${u.patient.mrn} · ` : ''}
                                {t('board.days', { count: u.days_in_stage })}
                              </Text>
                              <Group gap={4} mt={4} wrap="nowrap">
                                {canEdit && (
                                  <Select
                                    size="xs"
                                    aria-label={t('board.moveTo', { name: u.patient.name })}
                                    placeholder={t('board.movePlaceholder')}
                                    data={p.stages
                                      .filter((s) => s.id !== stage.id)
                                      .map((s) => ({ value: String(s.id), label: s.name }))}
                                    value={null}
                                    onChange={(v) =>
                                      v && void act(() => pipelineCalls.move(p.id, u.patient.id, Number(v)))
                                    }
                                    style={{ flex: 1 }}
                                  />
                                )}
                                <Button size="compact-xs" variant="subtle" onClick={() => setJourney(u)}>
                                  {t('board.history')}
                                </Button>
                                {canEdit && (
                                  <Button
                                    size="compact-xs"
                                    variant="subtle"
                                    onClick={() => setDialog({ kind: 'complete', user: u })}
                                  >
                                    {t('board.complete')}
                                  </Button>
                                )}
                              </Group>
                            </Paper>
                          ))}
                          {users.length < stage.users && (
                            <Text size="xs" c="dimmed" data-testid="stage-showing">
                              {t('board.showing', { shown: users.length, count: stage.users })}
                            </Text>
                          )}
                        </Stack>
                      </Paper>
                    );
                  })}
                </Group>
              </ScrollArea>
              {dialog?.kind === 'stage' && (
                <NameModal
                  title={dialog.stage ? t('board.rename') : t('board.addStage')}
                  label={t('board.stageName')}
                  initial={dialog.stage?.name ?? ''}
                  onClose={() => {
                    setDialog(null);
                    void reload();
                  }}
                  onSave={(name) =>
                    dialog.stage
                      ? pipelineCalls.renameStage(p.id, dialog.stage.id, name)
                      : pipelineCalls.createStage(p.id, name)
                  }
                />
              )}
              {dialog?.kind === 'complete' && (
                <CompleteModal
                  programId={programId}
                  pipelineId={p.id}
                  user={dialog.user}
                  onClose={() => {
                    setDialog(null);
                    void reload();
                  }}
                />
              )}
              {dialog?.kind === 'deleteStage' && (
                <ConfirmModal
                  title={t('board.deleteStageTitle', { name: dialog.stage.name })}
                  body={t('board.deleteStageBody')}
                  confirm={t('board.deleteStage')}
                  onClose={() => {
                    setDialog(null);
                    void reload();
                  }}
                  onConfirm={() => pipelineCalls.deleteStage(p.id, dialog.stage.id)}
                />
              )}
              <Drawer
                opened={journey !== null}
                onClose={() => setJourney(null)}
                position="right"
                title={journey?.patient.name ?? ''}
              >
                {journey && <Journey pipelineId={p.id} user={journey} language={i18n.language} />}
              </Drawer>
            </Stack>
          );
        }}
      </Loaded>
    </Stack>
  );
}

function AddPatients({ pipelineId, onAdded }: { pipelineId: number; onAdded: () => void }) {
  const { t } = useTranslation('pipelines');
  const [search, setSearch] = useState('');
  const [choice, setChoice] = useState<string | null>(null);
  const found = usePatientSearch(search);
  const options = (found.data?.data ?? []).map((p) => ({
    value: String(p.id),
    label: `${p.name}${p.mrn ? ` · ${p.mrn}` : ''}`,
  }));
  return (
    <Group gap="xs" align="flex-end">
      <Select
        label={t('board.addPatient')}
        placeholder={t('board.addPlaceholder')}
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        data={options}
        value={choice}
        onChange={setChoice}
        filter={({ options: all }) => all}
        w={260}
      />
      <Button
        disabled={!choice}
        onClick={async () => {
          try {
            const res = await pipelineCalls.addUsers(pipelineId, [Number(choice)]);
            if (res.added > 0) toast.success(res.message);
            else toast.info(t('board.alreadyIn'));
            setChoice(null);
            setSearch('');
            onAdded();
          } catch (error) {
            toastErrorsOr(error, t('board.addFailed'));
          }
        }}
      >
        {t('board.add')}
      </Button>
      <Button
        variant="default"
        component={Link}
        to={`/add-patient/pipeline/${pipelineId}/patient/new`}
        data-testid="pipeline-new-patient"
      >
        {t('board.newPatient')}
      </Button>
    </Group>
  );
}

function CompleteModal({
  programId,
  pipelineId,
  user,
  onClose,
}: {
  programId: number;
  pipelineId: number;
  user: PipelineUser;
  onClose: () => void;
}) {
  const { t } = useTranslation('pipelines');
  const others = usePipelines(programId, '');
  const [next, setNext] = useState<string | null>(null);
  return (
    <Modal opened onClose={onClose} title={t('board.completeTitle', { name: user.patient.name })}>
      <Stack gap="sm">
        <Text size="sm">{t('board.completeBody')}</Text>
        <Select
          label={t('board.next')}
          placeholder={t('board.noNext')}
          data={(others.data?.data ?? [])
            .filter((p) => p.id !== pipelineId)
            .map((p) => ({ value: String(p.id), label: p.name }))}
          value={next}
          onChange={setNext}
          clearable
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button
            onClick={async () => {
              try {
                toast.success(
                  (
                    await pipelineCalls.complete(
                      programId,
                      pipelineId,
                      user.patient.id,
                      next ? Number(next) : null,
                    )
                  ).message,
                );
                onClose();
              } catch (error) {
                toastErrors(error);
              }
            }}
          >
            {t('board.complete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function Journey({
  pipelineId,
  user,
  language,
}: {
  pipelineId: number;
  user: PipelineUser;
  language: string;
}) {
  const { t } = useTranslation('pipelines');
  const journey = usePatientJourney(pipelineId, user.patient.id);
  const at = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  const texts = { loading: t('loading'), error: t('loadError'), retry: t('retry') };
  return (
    <Loaded query={journey} texts={texts}>
      {({ stays, logs }) => (
        <Stack gap="md">
          <section aria-labelledby="journey-stays">
            <Title order={2} fz="h5" id="journey-stays">
              {t('journey.stays')}
            </Title>
            <Stack gap={2} mt={4}>
              {stays.map((s) => (
                <Text key={`${s.stage.id}-${s.entered_at}`} size="sm" data-testid="pipeline-stay">
                  {s.stage.name}: {t('journey.days', { count: s.days })}
                  {s.left_at ? '' : ` (${t('journey.now')})`}
                </Text>
              ))}
            </Stack>
          </section>
          <section aria-labelledby="journey-logs">
            <Title order={2} fz="h5" id="journey-logs">
              {t('journey.logs')}
            </Title>
            <Timeline bulletSize={12} lineWidth={2} mt="xs">
              {logs.map((l) => (
                <Timeline.Item key={l.id} title={t(`journey.kinds.${l.kind}`)}>
                  <Text size="xs" c="dimmed">
                    {[l.from_stage?.name, l.to_stage?.name].filter(Boolean).join(' → ')}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {at.format(new Date(l.at))} · {l.by?.name ?? t('journey.system')}
                  </Text>
                </Timeline.Item>
              ))}
            </Timeline>
          </section>
        </Stack>
      )}
    </Loaded>
  );
}
