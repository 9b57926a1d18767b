import { CARE_ROLES, RULE_EDITOR_ROLES, type Survey, type SurveyFolder } from '@caredeck/contracts';
import {
  ActionIcon,
  Badge,
  Button,
  Drawer,
  Group,
  NavLink,
  Pagination,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { IconFolderPlus, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { hasAnyRole } from '../../../app/auth/roles';
import { Loaded } from '../../../shared/ui/Loaded';
import { ConfirmModal, NameModal } from '../../../shared/ui/NameModal';
import { SearchBox } from '../../../shared/ui/SearchBox';
import { useCurrentUser } from '../../identity/api';
import { useActiveScope } from '../../tenancy/scope';
import {
  SURVEYS_KEY,
  surveyCalls,
  useSurveyFolders,
  useSurveys,
  useSurveyWorklist,
  type WorklistStatus,
} from '../api';
import { SurveyDetail } from '../components/SurveyDetail';
import { SurveyEditor } from '../components/SurveyEditor';
import '../i18n';

const STATUSES: readonly WorklistStatus[] = ['todo', 'overdue', 'open', 'flagged', 'scheduled', 'completed'];

/**
 * /surveys: the program's survey library (folders, surveys, questions, link, triggers, figures) and the
 * worklist of assignments to follow up (`?tab=worklist`; /surveys-v2 redirects there).
 */
export function SurveysPage() {
  const { t } = useTranslation('surveys');
  const scope = useActiveScope();
  const user = useCurrentUser();
  const programId = scope?.programId ?? 0;
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'worklist' ? 'worklist' : 'library';
  const set = (patch: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next);
  };
  const canEdit = Boolean(user && scope && hasAnyRole(user, CARE_ROLES, scope));
  const canSetTriggers = Boolean(user && scope && hasAnyRole(user, RULE_EDITOR_ROLES, scope));

  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz="h2">
          {t('title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('scope', { name: scope?.program?.name ?? '' })}
        </Text>
      </div>
      {scope?.enterpriseScope ? (
        <Text>{t('chooseProgram')}</Text>
      ) : (
        <Tabs value={tab} onChange={(v) => set({ tab: v ?? 'library', page: '' })}>
          <Tabs.List>
            <Tabs.Tab value="library">{t('tabs.library')}</Tabs.Tab>
            <Tabs.Tab value="worklist">{t('tabs.worklist')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="library" pt="md">
            {programId > 0 && (
              <Library
                programId={programId}
                canEdit={canEdit}
                canSetTriggers={canSetTriggers}
                params={params}
                set={set}
              />
            )}
          </Tabs.Panel>
          <Tabs.Panel value="worklist" pt="md">
            {programId > 0 && <Worklist programId={programId} params={params} set={set} />}
          </Tabs.Panel>
        </Tabs>
      )}
    </Stack>
  );
}

type UrlProps = { params: URLSearchParams; set: (patch: Record<string, string>) => void };

function Library({
  programId,
  canEdit,
  canSetTriggers,
  params,
  set,
}: { programId: number; canEdit: boolean; canSetTriggers: boolean } & UrlProps) {
  const { t } = useTranslation('surveys');
  const folderParam = params.get('folder');
  const folderId = folderParam ? Number(folderParam) : null;
  const search = params.get('q') ?? '';
  const folders = useSurveyFolders(programId);
  const surveys = useSurveys(programId, folderId, search);
  const queryClient = useQueryClient();
  const reload = () => queryClient.invalidateQueries({ queryKey: SURVEYS_KEY });
  const [editing, setEditing] = useState<{ survey: Survey | null } | null>(null);
  const [folderDialog, setFolderDialog] = useState<{ folder: SurveyFolder | null } | null>(null);
  const [deleting, setDeleting] = useState<SurveyFolder | null>(null);
  const openId = Number(params.get('survey')) || null;
  const open = surveys.data?.data.find((s) => s.id === openId) ?? null;
  const texts = { loading: t('loading'), error: t('loadError'), retry: t('retry') };

  return (
    <Group align="flex-start" gap="md" wrap="wrap">
      <Paper withBorder radius="md" p="xs" w={240} component="nav" aria-label={t('folders.title')}>
        <NavLink label={t('folders.all')} active={folderId === null} onClick={() => set({ folder: '' })} />
        {(folders.data?.data ?? []).map((f) => (
          <Group key={f.id} gap={0} wrap="nowrap">
            <NavLink
              label={f.name}
              description={t('folders.count', { count: f.surveys })}
              active={folderId === f.id}
              onClick={() => set({ folder: String(f.id) })}
              style={{ flex: 1 }}
            />
            {canEdit && (
              <>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={t('folders.rename', { name: f.name })}
                  onClick={() => setFolderDialog({ folder: f })}
                >
                  <IconPencil size={14} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('folders.delete', { name: f.name })}
                  onClick={() => setDeleting(f)}
                >
                  <IconTrash size={14} />
                </ActionIcon>
              </>
            )}
          </Group>
        ))}
        {canEdit && (
          <Button
            variant="subtle"
            size="xs"
            mt="xs"
            leftSection={<IconFolderPlus size={14} />}
            onClick={() => setFolderDialog({ folder: null })}
          >
            {t('folders.new')}
          </Button>
        )}
      </Paper>
      <Stack style={{ flex: 1, minWidth: 320 }} gap="sm">
        <Group justify="space-between">
          <SearchBox label={t('search')} value={search} onSearch={(q) => set({ q })} />
          {canEdit && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ survey: null })}>
              {t('newSurvey')}
            </Button>
          )}
        </Group>
        <Loaded query={surveys} texts={texts}>
          {({ data }) =>
            data.length === 0 ? (
              <Text c="dimmed">{t('empty')}</Text>
            ) : (
              <Table.ScrollContainer minWidth={560}>
                <Table highlightOnHover verticalSpacing="xs" data-testid="surveys-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('table.name')}</Table.Th>
                      <Table.Th w={110}>{t('table.questions')}</Table.Th>
                      <Table.Th w={110}>{t('table.open')}</Table.Th>
                      <Table.Th w={110}>{t('table.triggers')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.map((s) => (
                      <Table.Tr
                        key={s.id}
                        tabIndex={0}
                        style={{ cursor: 'pointer' }}
                        aria-label={t('table.openSurvey', { name: s.name })}
                        onClick={() => set({ survey: String(s.id) })}
                        onKeyDown={(e) => {
                          if (e.key === 'Enter' && e.target === e.currentTarget)
                            set({ survey: String(s.id) });
                        }}
                        data-testid="survey-row"
                      >
                        <Table.Td>
                          <Text fw={500}>{s.name}</Text>
                          <Text size="xs" c="dimmed">
                            {t('table.version', { version: s.version })}
                          </Text>
                        </Table.Td>
                        <Table.Td>{s.questions.length}</Table.Td>
                        <Table.Td>{s.open_assignments}</Table.Td>
                        <Table.Td>{s.triggers.filter((x) => x.is_active).length}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )
          }
        </Loaded>
      </Stack>
      <Drawer
        opened={open !== null}
        onClose={() => set({ survey: '' })}
        position="right"
        size="lg"
        title={t('detail.title')}
      >
        {open && (
          <SurveyDetail
            programId={programId}
            survey={open}
            folders={folders.data?.data ?? []}
            canEdit={canEdit}
            canSetTriggers={canSetTriggers}
            onEdit={() => setEditing({ survey: open })}
          />
        )}
      </Drawer>
      {editing && (
        <SurveyEditor
          programId={programId}
          survey={editing.survey}
          onClose={(saved) => {
            setEditing(null);
            if (saved) void reload();
          }}
        />
      )}
      {folderDialog && (
        <NameModal
          title={folderDialog.folder ? t('folders.renameTitle') : t('folders.new')}
          label={t('folders.name')}
          initial={folderDialog.folder?.name ?? ''}
          onClose={() => {
            setFolderDialog(null);
            void reload();
          }}
          onSave={(name) =>
            folderDialog.folder
              ? surveyCalls.renameFolder(folderDialog.folder.id, name)
              : surveyCalls.createFolder(programId, name)
          }
        />
      )}
      {deleting && (
        <ConfirmModal
          title={t('folders.deleteTitle', { name: deleting.name })}
          body={t('folders.deleteBody')}
          confirm={t('folders.deleteConfirm')}
          onClose={() => {
            setDeleting(null);
            void reload();
          }}
          onConfirm={async () => {
            const res = await surveyCalls.deleteFolder(deleting.id);
            if (folderId === deleting.id) set({ folder: '' });
            return res;
          }}
        />
      )}
    </Group>
  );
}

function Worklist({ programId, params, set }: { programId: number } & UrlProps) {
  const { t, i18n } = useTranslation('surveys');
  const status = (STATUSES.find((s) => s === params.get('status')) ?? 'todo') as WorklistStatus;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const search = params.get('q') ?? '';
  const list = useSurveyWorklist(programId, { status, page, search });
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const texts = { loading: t('loading'), error: t('worklist.loadError'), retry: t('retry') };
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <SegmentedControl
          value={status}
          onChange={(v) => set({ status: v === 'todo' ? '' : v, page: '' })}
          data={STATUSES.map((s) => ({ value: s, label: t(`worklist.status.${s}`) }))}
          aria-label={t('worklist.statusLabel')}
        />
        <SearchBox label={t('worklist.search')} value={search} onSearch={(q) => set({ q, page: '' })} />
      </Group>
      <Loaded query={list} texts={texts}>
        {(res) =>
          res.data.length === 0 ? (
            <Text c="dimmed">{t('worklist.empty')}</Text>
          ) : (
            <>
              <Table.ScrollContainer minWidth={720}>
                <Table verticalSpacing="xs" data-testid="survey-worklist">
                  <Table.Caption>{t('worklist.caption', { count: res.total })}</Table.Caption>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('worklist.patient')}</Table.Th>
                      <Table.Th>{t('worklist.survey')}</Table.Th>
                      <Table.Th w={170}>{t('worklist.state')}</Table.Th>
                      <Table.Th w={140}>{t('worklist.date')}</Table.Th>
                      <Table.Th w={90}>{t('worklist.score')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {res.data.map((a) => (
                      <Table.Tr key={a.id} data-testid="survey-worklist-row">
                        <Table.Td>
                          <Link to={`/patient/${a.patient.id}?tab=surveys`}>{a.patient.name}</Link>
                          {a.patient.mrn && (
                            <Text size="xs" c="dimmed">
                              {a.patient.mrn}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>{a.survey.name}</Table.Td>
                        <Table.Td>
                          <Group gap={4}>
                            <Badge variant="light" style={{ color: 'var(--mantine-color-text)' }}>
                              {t(`assignment.status.${a.status}`)}
                            </Badge>
                            {a.overdue && (
                              <Badge
                                color="orange"
                                variant="light"
                                style={{ color: 'var(--mantine-color-text)' }}
                              >
                                {t('assignment.overdue')}
                              </Badge>
                            )}
                            {a.flagged && (
                              <Badge
                                color="red"
                                variant="light"
                                style={{ color: 'var(--mantine-color-text)' }}
                              >
                                {t('assignment.flagged')}
                              </Badge>
                            )}
                          </Group>
                        </Table.Td>
                        <Table.Td>
                          {a.status === 'completed' && a.completed_at
                            ? date.format(new Date(a.completed_at))
                            : t('assignment.dueOn', { date: date.format(new Date(a.due_at)) })}
                        </Table.Td>
                        <Table.Td>{a.score ?? '—'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              {res.last_page > 1 && (
                <Pagination
                  total={res.last_page}
                  value={res.current_page}
                  onChange={(p) => set({ page: String(p) })}
                />
              )}
            </>
          )
        }
      </Loaded>
    </Stack>
  );
}
