import { CARE_ROLES, type Pipeline } from '@caredeck/contracts';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { hasAnyRole } from '../../../app/auth/roles';
import { firstFieldErrors } from '../../../shared/api-client';
import { Loaded } from '../../../shared/ui/Loaded';
import { ConfirmModal } from '../../../shared/ui/NameModal';
import { SearchBox } from '../../../shared/ui/SearchBox';
import { toast } from '../../../shared/ui/toasts';
import { useCurrentUser } from '../../identity/api';
import { useActiveScope } from '../../tenancy/scope';
import { PIPELINES_KEY, pipelineCalls, usePipelines, useTemplates } from '../api';
import '../i18n';

/** /pipelines: the program's pipelines with their stages and counts; create (stages or a template), delete. */
export function PipelinesPage() {
  const { t } = useTranslation('pipelines');
  const scope = useActiveScope();
  const user = useCurrentUser();
  const programId = scope && !scope.enterpriseScope ? scope.programId : 0;
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const list = usePipelines(programId, search);
  const canEdit = Boolean(user && scope && hasAnyRole(user, CARE_ROLES, scope));
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Pipeline | null>(null);
  const queryClient = useQueryClient();
  const texts = { loading: t('loading'), error: t('loadError'), retry: t('retry') };

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Title order={1} fz="h2">
            {t('title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('scope', { name: scope?.program?.name ?? '' })}
          </Text>
        </div>
        {canEdit && programId > 0 && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {t('newPipeline')}
          </Button>
        )}
      </Group>
      {programId === 0 ? (
        <Text>{t('chooseProgram')}</Text>
      ) : (
        <>
          <SearchBox
            label={t('search')}
            value={search}
            onSearch={(q) => setParams(q ? { q } : {}, { replace: true })}
            maw={360}
          />
          <Loaded query={list} texts={texts}>
            {({ data }) =>
              data.length === 0 ? (
                <Text c="dimmed">{t('empty')}</Text>
              ) : (
                <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
                  {data.map((p) => (
                    <Paper key={p.id} withBorder radius="md" p="md" data-testid="pipeline-card">
                      <Group justify="space-between" wrap="nowrap" align="flex-start">
                        <div>
                          <Title order={2} fz="h4">
                            <Link to={`/pipeline/${p.id}`}>{p.name}</Link>
                          </Title>
                          <Text size="sm" c="dimmed">
                            {[
                              t('counts.active', { count: p.users_count }),
                              t('counts.completed', { count: p.completed_count }),
                            ].join(' · ')}
                          </Text>
                        </div>
                        {canEdit && (
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={t('delete', { name: p.name })}
                            onClick={() => setDeleting(p)}
                          >
                            <IconTrash size={16} />
                          </ActionIcon>
                        )}
                      </Group>
                      <Group gap={4} mt="sm">
                        {p.stages.map((s) => (
                          <Badge key={s.id} variant="light" style={{ color: 'var(--mantine-color-text)' }}>
                            {s.name} · {s.users}
                          </Badge>
                        ))}
                      </Group>
                    </Paper>
                  ))}
                </SimpleGrid>
              )
            }
          </Loaded>
        </>
      )}
      {creating && <CreatePipeline programId={programId} onClose={() => setCreating(false)} />}
      {deleting && (
        <ConfirmModal
          title={t('deleteTitle', { name: deleting.name })}
          body={t('deleteBody')}
          confirm={t('deleteConfirm')}
          onClose={() => {
            setDeleting(null);
            void queryClient.invalidateQueries({ queryKey: PIPELINES_KEY });
          }}
          onConfirm={() => pipelineCalls.remove(programId, deleting.id)}
        />
      )}
    </Stack>
  );
}

let rows = 0;
const blankStage = () => ({ uid: `s${++rows}`, name: '' });

function CreatePipeline({ programId, onClose }: { programId: number; onClose: () => void }) {
  const { t } = useTranslation('pipelines');
  const navigate = useNavigate();
  const templates = useTemplates(programId);
  const [name, setName] = useState('');
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [stages, setStages] = useState([blankStage(), blankStage()]);
  const [saveAsTemplate, setSaveAsTemplate] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [busy, setBusy] = useState(false);
  return (
    <Modal opened onClose={onClose} title={t('newPipeline')} size="lg">
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setErrors({});
          const named = stages
            .filter((s) => s.name.trim())
            .map((s) => ({ name: s.name.trim(), color: null }));
          try {
            const res = await pipelineCalls.create(programId, {
              name,
              stages: templateId ? [] : named,
              ...(templateId ? { template_id: Number(templateId) } : {}),
            });
            if (saveAsTemplate.trim() && !templateId)
              await pipelineCalls.saveTemplate(programId, saveAsTemplate.trim(), named);
            toast.success(res.message);
            onClose();
            navigate(`/pipeline/${res.data.id}`);
          } catch (error) {
            const fields = firstFieldErrors(error);
            if (fields) setErrors(fields);
            else toast.error(t('backendError'));
          } finally {
            setBusy(false);
          }
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('create.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            required
            data-autofocus
          />
          <Select
            label={t('create.template')}
            placeholder={t('create.noTemplate')}
            data={(templates.data?.data ?? []).map((tpl) => ({
              value: String(tpl.id),
              label: `${tpl.name} (${tpl.stages.map((s) => s.name).join(' → ')})`,
            }))}
            value={templateId}
            onChange={setTemplateId}
            clearable
            error={errors.template_id}
          />
          {!templateId && (
            <>
              <Text size="sm" fw={500}>
                {t('create.stages')}
              </Text>
              {stages.map((s, i) => (
                <Group key={s.uid} gap="xs" wrap="nowrap">
                  <TextInput
                    aria-label={t('create.stageN', { n: i + 1 })}
                    placeholder={t('create.stageN', { n: i + 1 })}
                    value={s.name}
                    onChange={(e) => {
                      const value = e.currentTarget.value;
                      setStages((all) => all.map((x) => (x.uid === s.uid ? { ...x, name: value } : x)));
                    }}
                    style={{ flex: 1 }}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    aria-label={t('create.removeStage', { n: i + 1 })}
                    disabled={stages.length <= 1}
                    onClick={() => setStages((all) => all.filter((x) => x.uid !== s.uid))}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              ))}
              {errors.stages && (
                <Text size="sm" c="red" role="alert">
                  {errors.stages}
                </Text>
              )}
              <Group>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  leftSection={<IconPlus size={14} />}
                  onClick={() => setStages((all) => [...all, blankStage()])}
                >
                  {t('create.addStage')}
                </Button>
              </Group>
              <TextInput
                label={t('create.saveAsTemplate')}
                description={t('create.saveAsTemplateHint')}
                value={saveAsTemplate}
                onChange={(e) => setSaveAsTemplate(e.currentTarget.value)}
              />
            </>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('create.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
