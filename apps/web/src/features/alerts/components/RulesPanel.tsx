import {
  ALERT_TYPES,
  type DryRunResult,
  RULE_AGGREGATIONS,
  RULE_COMPARISONS,
  RULE_OBSERVABLES,
  RULE_SMS_MAX,
  type Rule,
  type RuleBody,
  STAFF_ROLES,
} from '@caredeck/contracts';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  NumberInput,
  Paper,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { RULES_KEY, ruleCalls, useRules } from '../api';
import '../../staff/i18n';
import '../i18n';

type Draft = Omit<RuleBody, 'program_id'> & {
  criterion: { comparison: string; value: number; aggregation: string; window_minutes: number };
  outcome: {
    type: 'raise_alert' | 'notify_role' | 'send_sms';
    alert_type: string;
    notify_role: string | null;
    sms_text: string | null;
  };
};

const EMPTY: Draft = {
  name: '',
  observable: 'systolic',
  criterion: { comparison: '>=', value: 160, aggregation: 'average', window_minutes: 24 * 60 },
  outcome: {
    type: 'raise_alert',
    alert_type: 'out_range_blood_pressure_alerts',
    notify_role: null,
    sms_text: null,
  },
  active: false,
};

/** A program's rules: list, create or edit with a dry run of who they would hit now, switch on, delete. */
export function RulesPanel({ programId }: { programId: number }) {
  const { t } = useTranslation('alerts');
  const rules = useRules(programId);
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<{ id: number | null; draft: Draft } | null>(null);
  const [deleting, setDeleting] = useState<Rule | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: RULES_KEY });

  const describe = (r: Pick<Rule, 'observable' | 'criterion'>) =>
    t('rules.describe', {
      aggregation: t(`rules.aggregations.${r.criterion.aggregation}`),
      observable: t(`rules.observables.${r.observable}`),
      comparison: r.criterion.comparison,
      value: r.criterion.value,
      hours: Math.round((r.criterion.window_minutes / 60) * 10) / 10,
    });

  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="h4">
          {t('rules.title')}
        </Title>
        <Button size="xs" onClick={() => setEditing({ id: null, draft: EMPTY })}>
          {t('rules.new')}
        </Button>
      </Group>
      {rules.isError ? (
        <Alert color="red">{t('rules.loadError')}</Alert>
      ) : !rules.data ? (
        <Loader size="sm" aria-label={t('loading')} />
      ) : rules.data.data.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('rules.empty')}
        </Text>
      ) : (
        <Table verticalSpacing="xs" data-testid="rules-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('rules.name')}</Table.Th>
              <Table.Th>{t('rules.when')}</Table.Th>
              <Table.Th>{t('rules.raises')}</Table.Th>
              <Table.Th w={110}>{t('rules.state')}</Table.Th>
              <Table.Th w={170} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rules.data.data.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>
                  {r.name}
                  <Text size="xs" c="dimmed">
                    {t('rules.version', { version: r.version })}
                  </Text>
                </Table.Td>
                <Table.Td>{describe(r)}</Table.Td>
                <Table.Td>
                  {t(`types.${r.outcome.alert_type}`)}
                  {r.outcome.sms_text && (
                    <Text size="xs" c="dimmed">
                      {t('rules.texts')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Badge
                    variant="light"
                    color={r.active ? 'teal' : 'gray'}
                    style={{ color: 'var(--mantine-color-text)' }}
                  >
                    {r.active ? t('rules.on') : t('rules.off')}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end">
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() =>
                        setEditing({
                          id: r.id,
                          draft: {
                            name: r.name,
                            observable: r.observable,
                            criterion: r.criterion,
                            outcome: r.outcome,
                            active: r.active,
                          },
                        })
                      }
                    >
                      {t('rules.edit')}
                    </Button>
                    <Button size="xs" variant="light" color="danger" onClick={() => setDeleting(r)}>
                      {t('rules.delete')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {editing && (
        <RuleEditor
          programId={programId}
          id={editing.id}
          initial={editing.draft}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void reload();
          }}
        />
      )}
      <Modal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('rules.deleteTitle', { name: deleting?.name ?? '' })}
      >
        <Stack>
          <Text size="sm">{t('rules.deleteBody')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {t('actions.cancel')}
            </Button>
            <Button
              color="danger"
              onClick={async () => {
                try {
                  await ruleCalls.remove(deleting!.id);
                  toast.success(t('rules.deleted'));
                } catch (error) {
                  toastErrors(error);
                } finally {
                  setDeleting(null);
                  void reload();
                }
              }}
            >
              {t('rules.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

function RuleEditor({
  programId,
  id,
  initial,
  onClose,
  onSaved,
}: {
  programId: number;
  id: number | null;
  initial: Draft;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('alerts');
  const { t: staffText } = useTranslation('staff');
  const [draft, setDraft] = useState<Draft>(initial);
  const [preview, setPreview] = useState<DryRunResult | null>(null);
  const [busy, setBusy] = useState(false);
  const kind = RULE_OBSERVABLES.find((o) => o.key === draft.observable)?.kind ?? 'reading';
  const set = (next: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...next }));
    setPreview(null);
  };
  const setCriterion = (next: Partial<Draft['criterion']>) =>
    set({ criterion: { ...draft.criterion, ...next } });
  const body = (): RuleBody => ({ ...(draft as RuleBody), program_id: programId });

  const dryRun = async () => {
    setBusy(true);
    try {
      setPreview((await ruleCalls.dryRun(body())).data);
    } catch (error) {
      toastErrors(error);
    } finally {
      setBusy(false);
    }
  };
  const save = async () => {
    setBusy(true);
    try {
      const { program_id: _p, ...rest } = body();
      if (id === null) await ruleCalls.create(body());
      else await ruleCalls.update(id, rest);
      toast.success(id === null ? t('rules.created') : t('rules.updated'));
      onSaved();
    } catch (error) {
      toastErrors(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={id === null ? t('rules.new') : t('rules.edit')} size="lg">
      <Stack gap="sm">
        <TextInput
          label={t('rules.name')}
          value={draft.name}
          onChange={(e) => set({ name: e.currentTarget.value })}
        />
        <Group grow align="flex-end">
          <Select
            label={t('rules.observable')}
            value={draft.observable}
            allowDeselect={false}
            onChange={(v) => {
              const nextKind = RULE_OBSERVABLES.find((o) => o.key === v)?.kind;
              set({
                observable: v as Draft['observable'],
                criterion: {
                  ...draft.criterion,
                  aggregation: nextKind === 'reading' ? draft.criterion.aggregation : 'latest',
                  window_minutes:
                    nextKind === 'adherence'
                      ? Math.max(1440, draft.criterion.window_minutes)
                      : draft.criterion.window_minutes,
                },
              });
            }}
            data={RULE_OBSERVABLES.map((o) => ({ value: o.key, label: t(`rules.observables.${o.key}`) }))}
          />
          <Select
            label={t('rules.aggregation')}
            value={draft.criterion.aggregation}
            disabled={kind !== 'reading'}
            allowDeselect={false}
            onChange={(v) => setCriterion({ aggregation: v ?? 'latest' })}
            data={RULE_AGGREGATIONS.map((a) => ({ value: a, label: t(`rules.aggregations.${a}`) }))}
          />
        </Group>
        <Group grow align="flex-end">
          <Select
            label={t('rules.comparison')}
            value={draft.criterion.comparison}
            allowDeselect={false}
            onChange={(v) => setCriterion({ comparison: v ?? '>=' })}
            data={RULE_COMPARISONS.map((c) => ({ value: c, label: c }))}
          />
          <NumberInput
            label={t('rules.value')}
            value={draft.criterion.value}
            onChange={(v) => setCriterion({ value: Number(v) || 0 })}
          />
          <NumberInput
            label={t('rules.windowHours')}
            min={0}
            value={draft.criterion.window_minutes / 60}
            disabled={kind === 'absence'}
            onChange={(v) => setCriterion({ window_minutes: Math.round((Number(v) || 0) * 60) })}
          />
        </Group>
        <Group grow align="flex-end">
          <Select
            label={t('rules.raises')}
            value={draft.outcome.alert_type}
            allowDeselect={false}
            searchable
            onChange={(v) =>
              set({ outcome: { ...draft.outcome, alert_type: v ?? draft.outcome.alert_type } })
            }
            data={ALERT_TYPES.map((type) => ({ value: type, label: t(`types.${type}`) }))}
          />
          <Select
            label={t('rules.notify')}
            value={draft.outcome.notify_role ?? ''}
            onChange={(v) =>
              set({
                outcome: {
                  ...draft.outcome,
                  notify_role: v || null,
                  type: v ? 'notify_role' : 'raise_alert',
                },
              })
            }
            data={[
              { value: '', label: t('rules.nobody') },
              ...STAFF_ROLES.map((role) => ({ value: role, label: staffText(`roles.${role}`) })),
            ]}
          />
        </Group>
        <Switch
          label={t('rules.textPatient')}
          checked={draft.outcome.sms_text !== null}
          onChange={(e) =>
            set({
              outcome: { ...draft.outcome, sms_text: e.currentTarget.checked ? t('rules.smsDefault') : null },
            })
          }
        />
        {draft.outcome.sms_text !== null && (
          <Textarea
            label={t('rules.smsText')}
            description={t('rules.smsHint')}
            autosize
            minRows={2}
            maxLength={RULE_SMS_MAX}
            value={draft.outcome.sms_text}
            onChange={(e) => set({ outcome: { ...draft.outcome, sms_text: e.currentTarget.value } })}
          />
        )}
        <Switch
          label={t('rules.active')}
          checked={draft.active}
          onChange={(e) => set({ active: e.currentTarget.checked })}
        />
        {preview && (
          <Alert color={preview.total > 0 ? 'orange' : 'teal'} data-testid="rule-preview">
            <Text size="sm" fw={500}>
              {t('rules.previewCount', { total: preview.total, evaluated: preview.evaluated })}
            </Text>
            {preview.hits.slice(0, 10).map((h) => (
              <Text key={h.patient.id} size="xs">
                {h.patient.name}: {h.value}
              </Text>
            ))}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('actions.cancel')}
          </Button>
          <Button variant="light" onClick={() => void dryRun()} loading={busy}>
            {t('rules.preview')}
          </Button>
          <Button onClick={() => void save()} loading={busy}>
            {t('rules.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
