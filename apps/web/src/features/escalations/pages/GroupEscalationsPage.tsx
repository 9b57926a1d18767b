import { type Alert as AlertRow, SMS_MAX_CHARS } from '@caredeck/contracts';
import { Anchor, Button, Checkbox, Group, Paper, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { IconArrowLeft, IconSend } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { usePageTitle } from '../../../app/documentTitle';
import { isApiError } from '../../../shared/api-client';
import { Loaded } from '../../../shared/ui/Loaded';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useCohort } from '../../cohorts/api';
import { useActiveScope } from '../../tenancy/scope';
import { ESCALATIONS_KEY, escalationCalls, useCohortEscalations, useLiveEscalations } from '../api';
import { useLoadedTexts } from './PatientEscalationsPage';
import '../i18n';

type PatientRow = { id: number; name: string; count: number; last: string };

function byPatient(alerts: AlertRow[]): PatientRow[] {
  const rows = new Map<number, PatientRow>();
  for (const a of alerts) {
    const row = rows.get(a.patient.id) ?? {
      id: a.patient.id,
      name: a.patient.name,
      count: 0,
      last: a.last_at,
    };
    row.count += 1;
    if (a.last_at > row.last) row.last = a.last_at;
    rows.set(a.patient.id, row);
  }
  return [...rows.values()].sort((x, y) => y.last.localeCompare(x.last));
}

/**
 * /group/{groupId}/escalation-messages: the cohort's patients with escalated alerts (complete their
 * escalation together), and a text to the whole cohort.
 */
export function GroupEscalationsPage() {
  const { t, i18n } = useTranslation('escalations');
  const scope = useActiveScope();
  const programId = scope?.programId ?? 0;
  const groupId = Number(useParams().groupId);
  const queryClient = useQueryClient();
  const cohort = useCohort(groupId);
  const escalations = useCohortEscalations(programId, groupId);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useLiveEscalations();
  const loaded = useLoadedTexts();
  const name = cohort.data?.name ?? '';
  usePageTitle(name ? `${t('escalations')} · ${name}` : '');
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const reload = () => void queryClient.invalidateQueries({ queryKey: ESCALATIONS_KEY });

  const complete = async () => {
    try {
      const res = await escalationCalls.complete(programId, [...selected]);
      toast.success(t('cohort.completed', { count: res.count }));
      setSelected(new Set());
    } catch (err) {
      toastErrors(err);
    } finally {
      reload();
    }
  };
  const send = async () => {
    if (!text.trim() || sending) return;
    setSending(true);
    setError(null);
    try {
      const res = await escalationCalls.messageCohort(groupId, text);
      toast.success(t('cohort.sent', { count: res.data.recipients, skipped: res.data.skipped }));
      setText('');
      reload();
    } catch (err) {
      if (isApiError(err) && Object.keys(err.fieldErrors).length > 0)
        setError(Object.values(err.fieldErrors)[0]?.[0] ?? err.message);
      else toastErrors(err);
    } finally {
      setSending(false);
    }
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Anchor component={Link} to={`/group/${groupId}`} size="sm">
            <Group gap={4} component="span">
              <IconArrowLeft size={14} aria-hidden />
              {t('backCohort')}
            </Group>
          </Anchor>
          <Title order={1} fz="h2">
            {t('escalations')}
            {name ? ` · ${name}` : ''}
          </Title>
        </div>
        <Button component={Link} to={`/group/${groupId}/messages-history`} variant="default" size="xs">
          {t('history')}
        </Button>
      </Group>

      <Paper withBorder radius="md" p="md">
        <Group justify="space-between" mb="xs" wrap="wrap">
          <Title order={2} fz="h4">
            {t('cohort.patients')}
          </Title>
          <Button size="xs" color="teal.9" disabled={selected.size === 0} onClick={() => void complete()}>
            {t('cohort.complete', { count: selected.size })}
          </Button>
        </Group>
        <Loaded query={escalations} texts={loaded}>
          {(res) => {
            const rows = byPatient(res.data);
            if (rows.length === 0) return <Text c="dimmed">{t('cohort.none')}</Text>;
            const all = rows.every((r) => selected.has(r.id));
            return (
              <Table verticalSpacing="xs" data-testid="cohort-escalations">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={40}>
                      <Checkbox
                        aria-label={t('cohort.selectAll')}
                        checked={all}
                        onChange={() => setSelected(all ? new Set() : new Set(rows.map((r) => r.id)))}
                      />
                    </Table.Th>
                    <Table.Th>{t('cohort.patient')}</Table.Th>
                    <Table.Th w={160}>{t('cohort.count')}</Table.Th>
                    <Table.Th w={190}>{t('cohort.latest')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((r) => (
                    <Table.Tr key={r.id}>
                      <Table.Td>
                        <Checkbox
                          aria-label={t('cohort.select', { name: r.name })}
                          checked={selected.has(r.id)}
                          onChange={() =>
                            setSelected((current) => {
                              const next = new Set(current);
                              if (next.has(r.id)) next.delete(r.id);
                              else next.add(r.id);
                              return next;
                            })
                          }
                        />
                      </Table.Td>
                      <Table.Td>
                        <Anchor component={Link} to={`/patient/${r.id}/escalation-messages`} size="sm">
                          {r.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{r.count}</Table.Td>
                      <Table.Td>{time.format(new Date(r.last))}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            );
          }}
        </Loaded>
      </Paper>

      <Paper withBorder radius="md" p="md">
        <Title order={2} fz="h4">
          {t('cohort.message')}
        </Title>
        <Text size="sm" c="dimmed" mb="xs">
          {t('cohort.messageHint')}
        </Text>
        <Textarea
          label={t('cohort.text')}
          autosize
          minRows={2}
          maxRows={6}
          maxLength={SMS_MAX_CHARS}
          value={text}
          error={error}
          onChange={(e) => setText(e.currentTarget.value)}
        />
        <Group justify="flex-end" mt="xs">
          <Button
            leftSection={<IconSend size={16} />}
            loading={sending}
            disabled={!text.trim()}
            onClick={() => void send()}
          >
            {t('cohort.send')}
          </Button>
        </Group>
      </Paper>
    </Stack>
  );
}
