import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Pagination,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { toast } from '../../../shared/ui/toasts';
import { useActiveScope } from '../../tenancy/scope';
import {
  ALERTS_KEY,
  type AlertStep,
  alertActions,
  completeEscalations,
  useAlertList,
  useLiveAlerts,
} from '../api';
import { AlertDrawer } from '../components/AlertDrawer';
import '../i18n';

/**
 * /escalations: every escalated alert of the scope, oldest escalation first in urgency (newest occurrence
 * first), with acknowledge and "escalation completed" per patient; live with the board.
 */
export function EscalationsPage() {
  const { t, i18n } = useTranslation('alerts');
  const scope = useActiveScope();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  useLiveAlerts();
  const list = useAlertList(scope, {
    type: 'all',
    period: 'all',
    status: 'escalated',
    query: '',
    assigned: '',
    page,
  });
  const [openId, setOpenId] = useState<number | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const rows = list.isError ? [] : (list.data?.data ?? []);

  const run = async (id: number, action: AlertStep, done: string) => {
    setBusy(id);
    try {
      await action();
      toast.success(done);
    } catch {
      toast.error(t('toasts.backendError'));
    } finally {
      setBusy(null);
      await queryClient.invalidateQueries({ queryKey: ALERTS_KEY });
    }
  };

  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz="h2">
          {i18n.t('nav.escalations')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('escalations.hint')}
        </Text>
      </div>
      {list.isError && (
        <Alert color="red" title={t('listError')}>
          <Button size="xs" variant="light" onClick={() => void list.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      )}
      <Paper withBorder radius="md" p="md">
        {list.isPending ? (
          <Group justify="center">
            <Loader aria-label={t('loading')} />
          </Group>
        ) : rows.length === 0 ? (
          <Text c="dimmed" ta="center" py="md">
            {t('escalations.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table verticalSpacing="xs" data-testid="escalations">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('table.patient')}</Table.Th>
                  <Table.Th>{t('table.what')}</Table.Th>
                  <Table.Th w={170}>{t('escalations.since')}</Table.Th>
                  <Table.Th w={150}>{t('escalations.to')}</Table.Th>
                  <Table.Th w={300} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td>
                      <Link to={`/patient/${r.patient.id}`} style={{ color: 'inherit' }}>
                        {r.patient.name}
                      </Link>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {t(`types.${r.type}`)}
                      </Text>
                      <Text size="xs">{r.summary}</Text>
                    </Table.Td>
                    <Table.Td>{r.escalated_at ? time.format(new Date(r.escalated_at)) : ''}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color="orange" style={{ color: 'var(--mantine-color-text)' }}>
                        {r.escalated_to_role}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end">
                        <Button size="xs" variant="default" onClick={() => setOpenId(r.id)}>
                          {t('escalations.details')}
                        </Button>
                        <Button
                          size="xs"
                          variant="default"
                          loading={busy === r.id}
                          onClick={() =>
                            void run(
                              r.id,
                              () => alertActions.acknowledge([r.id]),
                              t('toasts.acknowledged', { count: 1 }),
                            )
                          }
                        >
                          {t('actions.acknowledge')}
                        </Button>
                        <Button
                          size="xs"
                          loading={busy === r.id}
                          onClick={() =>
                            void run(
                              r.id,
                              () => completeEscalations(r.program_id, [r.patient.id]),
                              t('escalations.completed'),
                            )
                          }
                        >
                          {t('escalations.complete')}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {(list.data?.last_page ?? 1) > 1 && (
          <Group justify="center" mt="sm">
            <Pagination
              value={page}
              total={list.data?.last_page ?? 1}
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
      </Paper>
      <AlertDrawer id={openId} onClose={() => setOpenId(null)} />
    </Stack>
  );
}
