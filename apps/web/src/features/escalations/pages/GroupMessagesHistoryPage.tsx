import type { GroupMessage } from '@caredeck/contracts';
import { Anchor, Badge, Group, Pagination, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { usePageTitle } from '../../../app/documentTitle';
import { Loaded } from '../../../shared/ui/Loaded';
import { MessageText } from '../../../shared/ui/messageText';
import { useCohort } from '../../cohorts/api';
import { useGroupMessages, useLiveEscalations } from '../api';
import { useLoadedTexts } from './PatientEscalationsPage';
import '../i18n';

const STATES = ['delivered', 'sent', 'queued', 'failed', 'blocked'] as const;
const COLORS: Record<(typeof STATES)[number], string> = {
  delivered: 'teal.9',
  sent: 'blue.9',
  queued: 'gray.8',
  failed: 'red.9',
  blocked: 'red.9',
};

/** /group/{groupId}/messages-history: the texts sent to the cohort, newest first, with their delivery. */
export function GroupMessagesHistoryPage() {
  const { t, i18n } = useTranslation('escalations');
  const groupId = Number(useParams().groupId);
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const cohort = useCohort(groupId);
  const history = useGroupMessages(groupId, page);
  useLiveEscalations();
  const loaded = useLoadedTexts();
  const name = cohort.data?.name ?? '';
  usePageTitle(name ? `${t('history')} · ${name}` : '');
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const labels: Record<(typeof STATES)[number], string> = {
    delivered: t('status.delivered'),
    sent: t('status.sent'),
    queued: t('status.queued'),
    failed: t('status.failed'),
    blocked: t('status.blocked'),
  };
  const delivery = (m: GroupMessage) =>
    STATES.filter((s) => m.statuses[s] > 0).map((s) => (
      <Badge key={s} size="sm" variant="outline" color={COLORS[s]} mr={4}>
        {`${labels[s]}: ${m.statuses[s]}`}
      </Badge>
    ));

  return (
    <Stack gap="md">
      <div>
        <Anchor component={Link} to={`/group/${groupId}/escalation-messages`} size="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={14} aria-hidden />
            {t('escalations')}
          </Group>
        </Anchor>
        <Title order={1} fz="h2">
          {t('history')}
          {name ? ` · ${name}` : ''}
        </Title>
      </div>
      <Paper withBorder radius="md" p="md">
        <Loaded query={history} texts={loaded}>
          {(res) =>
            res.total === 0 ? (
              <Text c="dimmed">{t('cohort.historyEmpty')}</Text>
            ) : (
              <Stack gap="sm">
                <Table.ScrollContainer minWidth={640}>
                  <Table verticalSpacing="xs" data-testid="group-messages">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th w={170}>{t('messages.when')}</Table.Th>
                        <Table.Th>{t('messages.message')}</Table.Th>
                        <Table.Th w={120}>{t('cohort.recipients')}</Table.Th>
                        <Table.Th w={90}>{t('cohort.skipped')}</Table.Th>
                        <Table.Th w={260}>{t('cohort.delivery')}</Table.Th>
                        <Table.Th w={150}>{t('messages.by')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {res.data.map((m) => (
                        <Table.Tr key={m.id}>
                          <Table.Td>{time.format(new Date(m.created_at))}</Table.Td>
                          <Table.Td>
                            <MessageText>{m.body}</MessageText>
                          </Table.Td>
                          <Table.Td>{m.recipients}</Table.Td>
                          <Table.Td>{m.skipped}</Table.Td>
                          <Table.Td>{delivery(m)}</Table.Td>
                          <Table.Td>{m.sent_by?.name ?? '–'}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
                {res.last_page > 1 && (
                  <Pagination
                    size="sm"
                    total={res.last_page}
                    value={page}
                    onChange={(p) => setParams({ page: String(p) })}
                  />
                )}
              </Stack>
            )
          }
        </Loaded>
      </Paper>
    </Stack>
  );
}
