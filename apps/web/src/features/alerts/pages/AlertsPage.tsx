import {
  ALERT_GROUPS,
  ALERT_TYPES,
  type Alert as AlertItem,
  type AlertTile,
  type AlertType,
} from '@caredeck/contracts';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Menu,
  Modal,
  Pagination,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { SearchBox } from '../../../shared/ui/SearchBox';
import { toast } from '../../../shared/ui/toasts';
import { useActiveScope } from '../../tenancy/scope';
import {
  ALERTS_KEY,
  type AlertListFilter,
  type AlertStep,
  alertActions,
  SNOOZE_CHOICES,
  useAlertList,
  useAlertTiles,
  useLiveAlerts,
} from '../api';
import { AlertDrawer } from '../components/AlertDrawer';
import { AssignMenu } from '../components/AssignMenu';
import { RulesPanel } from '../components/RulesPanel';
import { TempMessagesPanel } from '../components/TempMessagesPanel';
import { ThresholdsPanel } from '../components/ThresholdsPanel';
import { TriageList } from '../components/TriageList';
import '../i18n';

const PERIODS = ['day', 'week', 'month', 'all'] as const;
const STATUSES = ['active', 'resolved', 'all'] as const;
const STATUS_COLORS = { open: 'red', acknowledged: 'blue', escalated: 'orange', resolved: 'gray' } as const;

/** The board lists one type at a time. */
type BoardFilter = AlertListFilter & { type: AlertType };

type UrlKey = 'type' | 'period' | 'status' | 'q' | 'assigned' | 'page' | 'tab' | 'alert';

function pick<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

/**
 * /alerts: one tile per alert type with live counts, the chosen type's alerts below (period, status,
 * search and assignee in the URL), bulk acknowledge, snooze, assign, hide and clear, and each alert's
 * explanation and history in a drawer. The board reloads when the server announces a change.
 */
export function AlertsPage() {
  const { t, i18n } = useTranslation('alerts');
  const scope = useActiveScope();
  const [params, setParams] = useSearchParams();
  useLiveAlerts();
  const tiles = useAlertTiles(scope);

  const shown = (tiles.data?.data ?? []).filter((tile) => tile.evaluated);
  const firstWithAlerts = shown.find((tile) => tile.count > 0)?.type ?? 'out_range_blood_pressure_alerts';
  const filter: BoardFilter = {
    type: pick(params.get('type'), ALERT_TYPES, firstWithAlerts),
    period: pick(params.get('period'), PERIODS, 'week'),
    status: pick(params.get('status'), STATUSES, 'active'),
    query: params.get('q') ?? '',
    assigned: pick(params.get('assigned'), ['', 'me', 'nobody'] as const, ''),
    page: Math.max(1, Number(params.get('page')) || 1),
  };
  const tab = pick(params.get('tab'), ['board', 'rules', 'thresholds'] as const, 'board');
  const programId = scope && !scope.enterpriseScope ? scope.programId : null;
  const update = (next: Partial<Record<UrlKey, string>>) => {
    const merged = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value) merged.set(key, value);
      else merged.delete(key);
    }
    if (!('page' in next)) merged.delete('page');
    setParams(merged);
  };

  const scopeName =
    scope?.enterpriseScope && scope.enterprise
      ? t('scopeEnterprise', { name: scope.enterprise.name })
      : t('scopeProgram', { name: scope?.program?.name ?? '' });

  const board = (
    <Stack gap="md">
      {tiles.isError && !tiles.data ? (
        <Alert color="red" title={t('tilesError')}>
          <Button size="xs" variant="light" onClick={() => void tiles.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : !tiles.data ? (
        <Group justify="center" py="md">
          <Loader aria-label={t('loading')} />
        </Group>
      ) : (
        <Tiles tiles={shown} selected={filter.type} onSelect={(type) => update({ type })} />
      )}
      {tiles.data?.data.some((tile) => !tile.evaluated) && (
        <Text size="xs" c="dimmed">
          {t('notEvaluated')}
        </Text>
      )}
      <TriageList scope={scope} />
      {filter.type === 'temp_text_messages' ? (
        <TempMessagesPanel scope={scope} />
      ) : (
        <AlertList filter={filter} update={update} openAlert={Number(params.get('alert')) || null} />
      )}
    </Stack>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Title order={1} fz="h2">
            {i18n.t('nav.alerts')}
          </Title>
          <Text c="dimmed" size="sm">
            {scopeName}
          </Text>
        </div>
        <Badge variant="dot" color="teal">
          {t('live')}
        </Badge>
      </Group>
      <Tabs
        value={tab}
        keepMounted={false}
        onChange={(value) => update({ tab: value === 'board' ? '' : (value ?? '') })}
      >
        <Tabs.List>
          <Tabs.Tab value="board">{t('tabs.board')}</Tabs.Tab>
          <Tabs.Tab value="rules">{t('tabs.rules')}</Tabs.Tab>
          <Tabs.Tab value="thresholds">{t('tabs.thresholds')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="board" pt="md">
          {board}
        </Tabs.Panel>
        <Tabs.Panel value="rules" pt="md">
          {programId === null ? (
            <Alert color="blue">{t('tabs.chooseProgram')}</Alert>
          ) : (
            <RulesPanel programId={programId} />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="thresholds" pt="md">
          {programId === null ? (
            <Alert color="blue">{t('tabs.chooseProgram')}</Alert>
          ) : (
            <ThresholdsPanel programId={programId} />
          )}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function Tiles({
  tiles,
  selected,
  onSelect,
}: {
  tiles: AlertTile[];
  selected: AlertType;
  onSelect: (type: AlertType) => void;
}) {
  const { t, i18n } = useTranslation('alerts');
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <Stack gap="sm">
      {ALERT_GROUPS.map((group) => {
        const inGroup = tiles.filter((tile) => tile.group === group);
        if (inGroup.length === 0) return null;
        return (
          <section key={group} aria-labelledby={`alert-group-${group}`}>
            <Text id={`alert-group-${group}`} fw={600} size="sm" mb={4}>
              {t(`groups.${group}`)}
            </Text>
            <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
              {inGroup.map((tile) => (
                <UnstyledButton
                  key={tile.type}
                  onClick={() => onSelect(tile.type)}
                  aria-pressed={tile.type === selected}
                  data-testid={`alert-tile-${tile.type}`}
                >
                  <Paper
                    withBorder
                    p="sm"
                    radius="md"
                    style={
                      tile.type === selected
                        ? { borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 }
                        : undefined
                    }
                  >
                    <Text size="sm" fw={500} lineClamp={1}>
                      {t(`types.${tile.type}`)}
                    </Text>
                    <Text fz={28} fw={700} lh={1.2} data-testid="alert-tile-count">
                      {number.format(tile.count)}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {t('tile.patients', { count: tile.patients })}
                      {tile.unacknowledged > 0 &&
                        ` · ${t('tile.unacknowledged', { count: tile.unacknowledged })}`}
                      {tile.snoozed > 0 && ` · ${t('tile.snoozed', { count: tile.snoozed })}`}
                    </Text>
                  </Paper>
                </UnstyledButton>
              ))}
            </SimpleGrid>
          </section>
        );
      })}
    </Stack>
  );
}

function AlertList({
  filter,
  update,
  openAlert,
}: {
  filter: BoardFilter;
  update: (next: Partial<Record<UrlKey, string>>) => void;
  /** An alert to open at once (a notice's link: `?alert=`). */
  openAlert: number | null;
}) {
  const { t, i18n } = useTranslation('alerts');
  const scope = useActiveScope();
  const queryClient = useQueryClient();
  const list = useAlertList(scope, filter);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [openId, setOpenId] = useState<number | null>(openAlert);
  useEffect(() => setOpenId(openAlert), [openAlert]);
  const [confirmClear, setConfirmClear] = useState(false);
  const [busy, setBusy] = useState(false);
  // A failed list shows empty (02 §8), with the error above it.
  const rows: AlertItem[] = list.isError ? [] : (list.data?.data ?? []);
  const visibleSelection = rows.filter((r) => selected.has(r.id)).map((r) => r.id);
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  const run = async (action: AlertStep, done: (r: { count: number; until?: string }) => string) => {
    setBusy(true);
    try {
      const result = await action();
      toast.success(done(result));
      setSelected(new Set());
    } catch {
      toast.error(t('toasts.backendError'));
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: ALERTS_KEY });
    }
  };
  const ids = visibleSelection;
  const actions = {
    acknowledge: () =>
      run(
        () => alertActions.acknowledge(ids),
        (r) => t('toasts.acknowledged', { count: r.count }),
      ),
    snooze: (minutes: number) =>
      run(
        () => alertActions.snooze(ids, minutes),
        (r) => t('toasts.snoozed', { count: r.count, until: time.format(new Date(r.until!)) }),
      ),
    assign: (adminId: number | null) =>
      run(
        () => alertActions.assign(ids, adminId),
        (r) => t('toasts.assigned', { count: r.count }),
      ),
    hide: () => {
      const byProgram = new Map<number, number[]>();
      for (const r of rows.filter((row) => ids.includes(row.id)))
        byProgram.set(r.program_id, [...(byProgram.get(r.program_id) ?? []), r.id]);
      return run(
        async () => {
          let count = 0;
          for (const [programId, programIds] of byProgram)
            count += (await alertActions.hide(programId, programIds)).count;
          return { count };
        },
        (r) => t('toasts.hidden', { count: r.count }),
      );
    },
    clear: () =>
      run(
        () => alertActions.clear(ids),
        (r) => t('toasts.cleared', { count: r.count }),
      ),
  };
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Group align="flex-end" wrap="wrap" gap="sm">
          <Title order={2} fz="h4" mr="auto">
            {t(`types.${filter.type}`)}
          </Title>
          <SegmentedControl
            aria-label={t('filters.period')}
            value={filter.period}
            onChange={(period) => update({ period })}
            data={PERIODS.map((p) => ({ value: p, label: t(`filters.periods.${p}`) }))}
          />
          <SegmentedControl
            aria-label={t('filters.status')}
            value={filter.status}
            onChange={(status) => update({ status })}
            data={STATUSES.map((s) => ({ value: s, label: t(`filters.statuses.${s}`) }))}
          />
          <Select
            label={t('filters.assigned')}
            w={150}
            value={filter.assigned || 'anyone'}
            allowDeselect={false}
            onChange={(value) => update({ assigned: value === 'anyone' ? '' : (value ?? '') })}
            data={(['anyone', 'me', 'nobody'] as const).map((v) => ({
              value: v,
              label: t(`filters.assignedOptions.${v}`),
            }))}
          />
          <SearchBox
            label={t('filters.search')}
            value={filter.query}
            onSearch={(q) => update({ q })}
            w={240}
          />
        </Group>
        {ids.length > 0 && (
          <Group gap="xs" wrap="wrap" data-testid="alert-bulk-actions">
            <Text size="sm" fw={500}>
              {t('actions.selected', { count: ids.length })}
            </Text>
            <Button size="xs" onClick={() => void actions.acknowledge()} loading={busy}>
              {t('actions.acknowledge')}
            </Button>
            <Menu>
              <Menu.Target>
                <Button size="xs" variant="default" rightSection={<IconChevronDown size={14} />}>
                  {t('actions.snooze')}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {SNOOZE_CHOICES.map((m) => (
                  <Menu.Item key={m} onClick={() => void actions.snooze(Number(m))}>
                    {t(`actions.snoozeFor.${m}`)}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
            <AssignMenu
              programId={scope && !scope.enterpriseScope ? scope.programId : null}
              onAssign={(adminId) => void actions.assign(adminId)}
            />
            <Button size="xs" variant="default" onClick={() => void actions.hide()}>
              {t('actions.hide')}
            </Button>
            <Button size="xs" color="danger" variant="light" onClick={() => setConfirmClear(true)}>
              {t('actions.clear')}
            </Button>
          </Group>
        )}
        {list.isError && (
          <Alert color="red" title={t('listError')}>
            <Button size="xs" variant="light" onClick={() => void list.refetch()}>
              {t('retry')}
            </Button>
          </Alert>
        )}
        <Table.ScrollContainer minWidth={720}>
          <Table highlightOnHover verticalSpacing="xs" layout="fixed">
            <Table.Caption>
              {t('table.caption', { type: t(`types.${filter.type}`), total: list.data?.total ?? 0 })}
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <Checkbox
                    aria-label={t('table.selectAll')}
                    checked={allSelected}
                    indeterminate={!allSelected && ids.length > 0}
                    onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((r) => r.id)))}
                  />
                </Table.Th>
                <Table.Th w="20%">{t('table.patient')}</Table.Th>
                <Table.Th>{t('table.what')}</Table.Th>
                <Table.Th w={70}>{t('table.seen')}</Table.Th>
                <Table.Th w={170}>{t('table.last')}</Table.Th>
                <Table.Th w={130}>{t('table.status')}</Table.Th>
                <Table.Th w={140}>{t('table.assigned')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr
                  key={r.id}
                  tabIndex={0}
                  style={{ cursor: 'pointer' }}
                  aria-label={t('table.open', { name: r.patient.name })}
                  onClick={() => setOpenId(r.id)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' && e.target === e.currentTarget) setOpenId(r.id);
                  }}
                  data-testid="alert-row"
                >
                  <Table.Td onClick={(e) => e.stopPropagation()}>
                    <Checkbox
                      aria-label={`${t('table.select')} ${r.patient.name}`}
                      checked={selected.has(r.id)}
                      onChange={() => toggle(r.id)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Link
                      to={`/patient/${r.patient.id}`}
                      onClick={(e) => e.stopPropagation()}
                      style={{ color: 'inherit' }}
                    >
                      {r.patient.name}
                    </Link>
                    {r.patient.mrn && (
                      <Text size="xs" c="dimmed">
                        {r.patient.mrn}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" lineClamp={2}>
                      {r.summary}
                    </Text>
                  </Table.Td>
                  <Table.Td>{t('table.times', { count: r.occurrences })}</Table.Td>
                  <Table.Td>{time.format(new Date(r.last_at))}</Table.Td>
                  <Table.Td>
                    <Badge
                      variant="light"
                      color={STATUS_COLORS[r.status]}
                      style={{ color: 'var(--mantine-color-text)' }}
                    >
                      {t(`status.${r.status}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" lineClamp={1}>
                      {r.assigned_admin?.name ?? t('table.nobody')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {list.isPending && (
          <Group justify="center">
            <Loader size="sm" aria-label={t('loading')} />
          </Group>
        )}
        {!list.isPending && rows.length === 0 && !list.isError && (
          <Text c="dimmed" ta="center" py="md">
            {t('table.empty')}
          </Text>
        )}
        {(list.data?.last_page ?? 1) > 1 && (
          <Group justify="center">
            <Pagination
              value={filter.page}
              total={list.data?.last_page ?? 1}
              onChange={(page) => update({ page: String(page) })}
            />
          </Group>
        )}
      </Stack>
      <Modal
        opened={confirmClear}
        onClose={() => setConfirmClear(false)}
        title={t('confirm.clearTitle', { count: ids.length })}
      >
        <Stack>
          <Text size="sm">{t('confirm.clearBody')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmClear(false)}>
              {t('actions.cancel')}
            </Button>
            <Button
              color="danger"
              loading={busy}
              onClick={() => {
                setConfirmClear(false);
                void actions.clear();
              }}
            >
              {t('actions.clear')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <AlertDrawer
        id={openId}
        onClose={() => {
          setOpenId(null);
          if (openAlert) update({ alert: '' });
        }}
      />
    </Paper>
  );
}
