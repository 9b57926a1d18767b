import type { PatientNotification, SmsMessage } from '@caredeck/contracts';
import { Anchor, Badge, Group, Paper, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { usePageTitle } from '../../../app/documentTitle';
import { Loaded } from '../../../shared/ui/Loaded';
import { usePatient } from '../../patient-record/api';
import { useActiveScope } from '../../tenancy/scope';
import { useLiveEscalations, usePatientMessages } from '../api';
import { useLoadedTexts } from './PatientEscalationsPage';
import '../i18n';

type Row = {
  key: string;
  at: string;
  channel: 'sms' | 'email' | 'push';
  inbound: boolean;
  text: string;
  status: SmsMessage['status'];
  by: string | null;
  kind: 'texts' | 'notifications';
};

/** /patient/{patientId}/messages-history: every text and notification with the patient, newest first. */
export function PatientMessagesHistoryPage() {
  const { t, i18n } = useTranslation('escalations');
  const scope = useActiveScope();
  const programId = scope?.programId ?? 0;
  const patientId = Number(useParams().patientId);
  const patient = usePatient(programId, patientId);
  const messages = usePatientMessages(programId, patientId);
  const [show, setShow] = useState<'all' | 'texts' | 'notifications'>('all');
  useLiveEscalations();
  const loaded = useLoadedTexts();
  usePageTitle(patient.data ? `${t('history')} · ${patient.data.name}` : '');
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const channels = { sms: t('messages.sms'), email: t('messages.email'), push: t('messages.push') };
  const statuses: Record<SmsMessage['status'], string> = {
    queued: t('status.queued'),
    sent: t('status.sent'),
    delivered: t('status.delivered'),
    failed: t('status.failed'),
    received: t('status.received'),
    blocked: t('status.blocked'),
  };

  const rowsOf = (texts: SmsMessage[], notifications: PatientNotification[]): Row[] =>
    [
      ...texts.map(
        (m): Row => ({
          key: `s${m.id}`,
          at: m.created_at,
          channel: 'sms',
          inbound: m.direction === 'inbound',
          text: m.body,
          status: m.status,
          by: m.sent_by?.name ?? null,
          kind: 'texts',
        }),
      ),
      ...notifications.map(
        (n): Row => ({
          key: `n${n.id}`,
          at: n.created_at,
          channel: n.type,
          inbound: false,
          text: `${n.title}: ${n.body}`,
          status: n.status,
          by: n.sent_by?.name ?? null,
          kind: 'notifications',
        }),
      ),
    ]
      .filter((r) => show === 'all' || r.kind === show)
      .sort((a, b) => b.at.localeCompare(a.at));

  return (
    <Stack gap="md">
      <div>
        <Anchor component={Link} to={`/patient/${patientId}`} size="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={14} aria-hidden />
            {t('back')}
          </Group>
        </Anchor>
        <Title order={1} fz="h2">
          {t('history')}
          {patient.data ? ` · ${patient.data.name}` : ''}
        </Title>
      </div>
      <SegmentedControl
        w="fit-content"
        aria-label={t('messages.filter')}
        value={show}
        onChange={(v) => setShow(v as typeof show)}
        data={[
          { value: 'all', label: t('messages.all') },
          { value: 'texts', label: t('messages.texts') },
          { value: 'notifications', label: t('messages.notifications') },
        ]}
      />
      <Paper withBorder radius="md" p="md">
        <Loaded query={messages} texts={loaded}>
          {(res) => {
            const rows = rowsOf(res.texts.data, res.notifications.data);
            if (rows.length === 0) return <Text c="dimmed">{t('messages.empty')}</Text>;
            return (
              <Table.ScrollContainer minWidth={640}>
                <Table verticalSpacing="xs" data-testid="messages-history">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th w={170}>{t('messages.when')}</Table.Th>
                      <Table.Th w={110}>{t('messages.channel')}</Table.Th>
                      <Table.Th w={140}>{t('messages.direction')}</Table.Th>
                      <Table.Th>{t('messages.message')}</Table.Th>
                      <Table.Th w={150}>{t('messages.status')}</Table.Th>
                      <Table.Th w={150}>{t('messages.by')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((r) => (
                      <Table.Tr key={r.key}>
                        <Table.Td>{time.format(new Date(r.at))}</Table.Td>
                        <Table.Td>{channels[r.channel]}</Table.Td>
                        <Table.Td>{r.inbound ? t('messages.fromPatient') : t('messages.toPatient')}</Table.Td>
                        <Table.Td>
                          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                            {r.text}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <Badge
                            size="sm"
                            variant="outline"
                            color={r.status === 'failed' || r.status === 'blocked' ? 'red.9' : 'gray.8'}
                          >
                            {statuses[r.status]}
                          </Badge>
                        </Table.Td>
                        <Table.Td>{r.by ?? '–'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            );
          }}
        </Loaded>
      </Paper>
    </Stack>
  );
}
