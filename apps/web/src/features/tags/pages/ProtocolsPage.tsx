import { type Protocol, RULE_EDITOR_ROLES } from '@caredeck/contracts';
import {
  Accordion,
  ActionIcon,
  Badge,
  Button,
  Group,
  Modal,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasAnyRole } from '../../../app/auth/roles';
import { firstFieldErrors } from '../../../shared/api-client';
import { Loaded } from '../../../shared/ui/Loaded';
import { toast } from '../../../shared/ui/toasts';
import { useCurrentUser } from '../../identity/api';
import { useActiveScope } from '../../tenancy/scope';
import { TAGS_KEY, tagCalls, useProtocols } from '../api';
import '../i18n';

/** /protocols: the program's care protocols (name, description, ordered steps), written by the clinical roles. */
export function ProtocolsPage() {
  const { t, i18n } = useTranslation('tags');
  const scope = useActiveScope();
  const user = useCurrentUser();
  const programId = scope && !scope.enterpriseScope ? scope.programId : 0;
  const protocols = useProtocols(programId);
  const canEdit = Boolean(user && scope && hasAnyRole(user, RULE_EDITOR_ROLES, scope));
  const [editing, setEditing] = useState<{ protocol: Protocol | null } | null>(null);
  const queryClient = useQueryClient();
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const texts = { loading: t('protocols.loading'), error: t('protocols.loadError'), retry: t('retry') };
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <div>
          <Title order={1} fz="h2">
            {t('protocols.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('protocols.hint')}
          </Text>
        </div>
        {canEdit && programId > 0 && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ protocol: null })}>
            {t('protocols.new')}
          </Button>
        )}
      </Group>
      {programId === 0 ? (
        <Text>{t('protocols.chooseProgram')}</Text>
      ) : (
        <Loaded query={protocols} texts={texts}>
          {({ data }) =>
            data.length === 0 ? (
              <Text c="dimmed">{t('protocols.empty')}</Text>
            ) : (
              <Accordion variant="separated" multiple>
                {data.map((p) => (
                  <Accordion.Item key={p.id} value={String(p.id)} data-testid="protocol">
                    <Accordion.Control>
                      <Group gap="xs">
                        <Text fw={600}>{p.name}</Text>
                        {!p.active && (
                          <Badge color="gray" variant="light" style={{ color: 'var(--mantine-color-text)' }}>
                            {t('protocols.inactive')}
                          </Badge>
                        )}
                        <Text size="xs" c="dimmed">
                          {t('protocols.version', {
                            version: p.version,
                            date: date.format(new Date(p.updated_at)),
                            name: p.updated_by?.name ?? '',
                          })}
                        </Text>
                      </Group>
                    </Accordion.Control>
                    <Accordion.Panel>
                      {p.description && <Text mb="sm">{p.description}</Text>}
                      <Stack component="ol" gap={6} pl="md" m={0}>
                        {p.steps.map((s, i) => (
                          // biome-ignore lint/suspicious/noArrayIndexKey: a saved version's steps, read-only: their place is their identity
                          <li key={i}>
                            <Text fw={500} size="sm">
                              {s.title}
                            </Text>
                            {s.detail && (
                              <Text size="sm" c="dimmed">
                                {s.detail}
                              </Text>
                            )}
                          </li>
                        ))}
                      </Stack>
                      {canEdit && (
                        <Button
                          mt="sm"
                          size="xs"
                          variant="default"
                          onClick={() => setEditing({ protocol: p })}
                        >
                          {t('protocols.edit')}
                        </Button>
                      )}
                    </Accordion.Panel>
                  </Accordion.Item>
                ))}
              </Accordion>
            )
          }
        </Loaded>
      )}
      {editing && (
        <ProtocolEditor
          programId={programId}
          protocol={editing.protocol}
          onClose={() => {
            setEditing(null);
            void queryClient.invalidateQueries({ queryKey: TAGS_KEY });
          }}
        />
      )}
    </Stack>
  );
}

let stepKeys = 0;
const newStep = (title = '', detail = '') => ({ key: `step-${++stepKeys}`, title, detail });

function ProtocolEditor({
  programId,
  protocol,
  onClose,
}: {
  programId: number;
  protocol: Protocol | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('tags');
  const [name, setName] = useState(protocol?.name ?? '');
  const [description, setDescription] = useState(protocol?.description ?? '');
  const [active, setActive] = useState(protocol?.active ?? true);
  const [steps, setSteps] = useState(protocol?.steps.map((s) => newStep(s.title, s.detail)) ?? [newStep()]);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [busy, setBusy] = useState(false);
  const change = (key: string, patch: { title?: string; detail?: string }) =>
    setSteps((all) => all.map((s) => (s.key === key ? { ...s, ...patch } : s)));
  return (
    <Modal
      opened
      onClose={onClose}
      title={protocol ? t('protocols.editTitle') : t('protocols.new')}
      size="lg"
    >
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setErrors({});
          const body = {
            name,
            description,
            active,
            steps: steps.filter((s) => s.title.trim()).map((s) => ({ title: s.title, detail: s.detail })),
          };
          try {
            const res = protocol
              ? await tagCalls.updateProtocol(protocol.id, body)
              : await tagCalls.createProtocol(programId, body);
            toast.success(res.message);
            onClose();
          } catch (error) {
            const fields = firstFieldErrors(error);
            if (fields) setErrors(fields);
            // 02 §8: protocol create or update failures.
            else toast.error(t('protocols.failed'));
          } finally {
            setBusy(false);
          }
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('protocols.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            required
            data-autofocus
          />
          <Textarea
            label={t('protocols.description')}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            autosize
            minRows={2}
          />
          {steps.map((s, i) => (
            <Group key={s.key} align="flex-start" wrap="nowrap" gap="xs">
              <Stack gap={4} style={{ flex: 1 }}>
                <TextInput
                  label={t('protocols.step', { n: i + 1 })}
                  value={s.title}
                  onChange={(e) => change(s.key, { title: e.currentTarget.value })}
                  error={errors[`steps.${i}.title`]}
                />
                <Textarea
                  aria-label={t('protocols.stepDetail', { n: i + 1 })}
                  placeholder={t('protocols.detailPlaceholder')}
                  value={s.detail}
                  onChange={(e) => change(s.key, { detail: e.currentTarget.value })}
                  autosize
                  minRows={1}
                />
              </Stack>
              <ActionIcon
                mt={28}
                variant="subtle"
                color="gray"
                aria-label={t('protocols.removeStep', { n: i + 1 })}
                disabled={steps.length <= 1}
                onClick={() => setSteps((all) => all.filter((x) => x.key !== s.key))}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          <Group>
            <Button
              size="compact-sm"
              variant="subtle"
              leftSection={<IconPlus size={14} />}
              onClick={() => setSteps((all) => [...all, newStep()])}
            >
              {t('protocols.addStep')}
            </Button>
          </Group>
          <Switch
            label={t('protocols.active')}
            checked={active}
            onChange={(e) => setActive(e.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
