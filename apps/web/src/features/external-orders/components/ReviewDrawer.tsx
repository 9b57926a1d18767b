import type { ExternalOrderStatus } from '@caredeck/contracts';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Drawer,
  Group,
  List,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../shared/ui/toasts';
import { type ReviewTarget, useExternalOrderMutations, useFillFiles, useScheduleReview } from '../api';
import { StatusBadge } from './StatusBadge';

const DONE: readonly ExternalOrderStatus[] = ['finalized', 'shipped', 'delivered', 'cancelled'];
const errorToast = (error: unknown) => toast.error(`Error: ${(error as Error).message}`);

function FillFilesSection({ target }: { target: ReviewTarget }) {
  const { t } = useTranslation('externalOrders');
  const fill = useFillFiles(target);
  const { verifyFill } = useExternalOrderMutations();
  const data = fill.data;
  if (fill.isError)
    return (
      <Alert color="danger" role="alert">
        {t('loadError')}
      </Alert>
    );
  if (!data) return <Loader aria-label={t('loading')} />;
  return (
    <Stack gap="xs" data-testid="fill-files">
      <Text size="sm">
        {t('review.fillSummary', {
          start: data.start_date,
          end: data.end_date,
          days: t('review.days', { count: data.days }),
          pods: t('review.pods', { count: data.pods }),
        })}
      </Text>
      <Table aria-label={t('review.fillFiles')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('review.slot')}</Table.Th>
            <Table.Th>{t('review.time')}</Table.Th>
            <Table.Th>{t('review.contents')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.slots.map((s) => (
            <Table.Tr key={s.slot}>
              <Table.Td>{s.slot}</Table.Td>
              <Table.Td>{s.time}</Table.Td>
              <Table.Td>
                {s.items
                  .map((i) => `${[i.drug_name, i.strength].filter(Boolean).join(' ')} × ${i.count}`)
                  .join(', ')}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {data.manual.length > 0 && (
        <Text size="sm" c="dimmed">
          {t('review.manual', { drugs: data.manual.map((m) => m.drug_name).join(', ') })}
        </Text>
      )}
      {data.warnings.length > 0 && (
        <Alert color="secondary" title={t('review.warnings')}>
          <List size="sm">
            {data.warnings.map((w) => (
              <List.Item key={w.order_id}>{w.message}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {data.verified ? (
        <Badge variant="light" color="success">
          {t('review.verifiedBy', { name: data.verified_by?.name ?? '–' })}
        </Badge>
      ) : (
        <Group>
          <Button
            loading={verifyFill.isPending}
            onClick={() =>
              verifyFill.mutate(target, { onSuccess: (r) => toast.success(r.message), onError: errorToast })
            }
          >
            {t('review.verifyFill')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function ScheduleSection({ target }: { target: ReviewTarget }) {
  const { t } = useTranslation('externalOrders');
  const review = useScheduleReview(target);
  const { verifySchedule } = useExternalOrderMutations();
  const [times, setTimes] = useState<Record<number, string[]>>({});
  const data = review.data;
  useEffect(() => {
    if (data) setTimes(Object.fromEntries(data.regimens.map((r) => [r.order_id, r.times])));
  }, [data]);
  if (review.isError)
    return (
      <Alert color="danger" role="alert">
        {t('loadError')}
      </Alert>
    );
  if (!data) return <Loader aria-label={t('loading')} />;
  const verify = () => {
    const changed = data.regimens
      .filter((r) => (times[r.order_id] ?? r.times).join() !== r.times.join())
      .map((r) => ({ order_id: r.order_id, times: times[r.order_id] ?? r.times }));
    verifySchedule.mutate(
      { target, body: { regimens: changed } },
      {
        onSuccess: (r) => {
          toast.success(r.message);
          if (r.fill_files_reset) toast.info(t('review.fillReset'));
        },
        onError: errorToast,
      },
    );
  };
  return (
    <Stack gap="xs" data-testid="schedules">
      {data.regimens.map((r) => (
        <Stack key={r.order_id} gap={4}>
          <Group gap="xs">
            <Text fw={600} size="sm">
              {r.name}
            </Text>
            <Text size="xs" c="dimmed">
              {r.updates_regimen_id
                ? t('review.updates', { id: r.updates_regimen_id })
                : t('review.creates', { start: r.start_date, end: r.end_date })}
            </Text>
          </Group>
          <Text size="xs" c="dimmed">
            {t('review.sigLine', { sig: r.sig, count: r.per_dose })}
          </Text>
          <Group gap="xs">
            {(times[r.order_id] ?? r.times).map((time, i) => (
              <TextInput
                // biome-ignore lint/suspicious/noArrayIndexKey: the dose's position is its identity here.
                key={i}
                type="time"
                size="xs"
                w={120}
                aria-label={t('review.doseTime', { n: i + 1, name: r.name })}
                value={time}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  setTimes((current) => {
                    const next = [...(current[r.order_id] ?? r.times)];
                    next[i] = value;
                    return { ...current, [r.order_id]: next };
                  });
                }}
              />
            ))}
          </Group>
        </Stack>
      ))}
      {data.verified && (
        <Badge variant="light" color="success">
          {t('review.verifiedBy', { name: data.verified_by?.name ?? '–' })}
        </Badge>
      )}
      <Group>
        <Button
          variant={data.verified ? 'default' : 'filled'}
          loading={verifySchedule.isPending}
          onClick={verify}
        >
          {t(data.verified ? 'review.verifyScheduleAgain' : 'review.verifySchedule')}
        </Button>
      </Group>
    </Stack>
  );
}

function FinalizeSection({ programId, target }: { programId: number; target: ReviewTarget }) {
  const { t } = useTranslation('externalOrders');
  const fill = useFillFiles(target);
  const { finalize } = useExternalOrderMutations();
  const [chosen, setChosen] = useState<number[]>([]);
  const [confirming, setConfirming] = useState(false);
  const orders = fill.data?.orders ?? [];
  const ready = orders.filter((o) => o.status === 'verified');
  return (
    <Stack gap="xs" data-testid="finalize">
      {orders.map((o) => (
        <Group key={o.id} justify="space-between">
          <Checkbox
            label={`${o.order_number} · ${[o.drug_name, o.strength].filter(Boolean).join(' ')}`}
            checked={chosen.includes(o.id)}
            disabled={o.status !== 'verified'}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              setChosen((c) => (on ? [...c, o.id] : c.filter((id) => id !== o.id)));
            }}
          />
          <StatusBadge status={o.status} />
        </Group>
      ))}
      {ready.length === 0 && (
        <Text size="sm" c="dimmed">
          {t(orders.every((o) => DONE.includes(o.status)) ? 'review.allFinalized' : 'review.nothingReady')}
        </Text>
      )}
      <Group>
        <Button disabled={chosen.length === 0} onClick={() => setConfirming(true)}>
          {t('review.finalize', { count: chosen.length })}
        </Button>
      </Group>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('review.confirmTitle')}>
        <Stack>
          <Text size="sm">{t('review.confirmBody', { count: chosen.length, name: target.name })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('cancel')}
            </Button>
            <Button
              loading={finalize.isPending}
              onClick={() =>
                finalize.mutate(
                  { programId, ids: chosen },
                  {
                    onSuccess: (r) => {
                      toast.success(r.message);
                      setChosen([]);
                      setConfirming(false);
                    },
                    onError: (error) => {
                      setConfirming(false);
                      errorToast(error);
                    },
                  },
                )
              }
            >
              {t('review.finalizeConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** Review of a patient's orders needed by one date: fill files, schedules, then finalize (ADR 045). */
export function ReviewDrawer({
  programId,
  target,
  onClose,
}: {
  programId: number;
  target: ReviewTarget | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('externalOrders');
  return (
    <Drawer
      opened={target !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={target ? t('review.title', { name: target.name, date: target.date }) : ''}
    >
      {target && (
        <Stack gap="lg">
          <section aria-labelledby="eo-fill">
            <Title id="eo-fill" order={2} fz="h4" mb="xs">
              {t('review.fillFiles')}
            </Title>
            <FillFilesSection target={target} />
          </section>
          <section aria-labelledby="eo-schedule">
            <Title id="eo-schedule" order={2} fz="h4" mb="xs">
              {t('review.schedules')}
            </Title>
            <ScheduleSection target={target} />
          </section>
          <section aria-labelledby="eo-finalize">
            <Title id="eo-finalize" order={2} fz="h4" mb="xs">
              {t('review.finalizeTitle')}
            </Title>
            <FinalizeSection programId={programId} target={target} />
          </section>
        </Stack>
      )}
    </Drawer>
  );
}
