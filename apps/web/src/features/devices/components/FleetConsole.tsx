import type { Device, DispenserDetail } from '@caredeck/contracts';
import {
  Alert,
  Badge,
  Button,
  Code,
  Grid,
  Group,
  Loader,
  Pagination,
  Paper,
  ScrollArea,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchBox } from '../../../shared/ui/SearchBox';
import { useDispenser, useFleet, useGatewayStatus, useSendCommand } from '../api';
import { useControllerLive } from '../live';
import '../i18n';
import { LastEvent, relative } from './LastEvent';
import { NewSecretAction } from './NewSecretAction';

function ConnectionBadge({ device }: { device: Device }) {
  const { t } = useTranslation('devices');
  if (device.connected) return <Badge color="teal">{t('connected')}</Badge>;
  if (device.online)
    return (
      <Badge color="blue" variant="light">
        {t('online')}
      </Badge>
    );
  return (
    <Badge color="gray" variant="light">
      {t('offline')}
    </Badge>
  );
}

/**
 * /controller: the dispenser fleet (connection, battery, pods, last event; live through the controller socket) and, for
 * the chosen dispenser, its recent events and a command console for type 1 (JSON-RPC command line) and
 * type 2 (command and argument) dispensers, with each reply or time-out shown.
 */
export function FleetConsole() {
  const { t, i18n } = useTranslation('devices');
  const [search, setSearch] = useState('');
  const [connectedOnly, setConnectedOnly] = useState(false);
  const [page, setPage] = useState(1);
  const fleet = useFleet({ page, serial: search, connectedOnly });
  useControllerLive();
  const [selected, setSelected] = useState<number | null>(null);
  const locale = i18n.language === 'en' ? 'en-US' : i18n.language;
  const rows = fleet.data?.data ?? [];
  const lastPage = fleet.data?.last_page ?? 1;

  return (
    <Grid gap="md">
      <Grid.Col span={12}>
        <GatewayTiles />
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 7 }}>
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap">
            <Title order={2} fz="h4">
              {t('fleet')}
            </Title>
            {fleet.data && (
              <Text size="sm" c="dimmed" data-testid="fleet-count">
                {t('count', { shown: rows.length, count: fleet.data.total })}
              </Text>
            )}
          </Group>
          <Group>
            <SearchBox
              label={t('search')}
              placeholder={t('search')}
              value={search}
              onSearch={(v) => {
                setSearch(v);
                setPage(1);
              }}
              style={{ flex: 1 }}
            />
            <Switch
              label={t('connectedOnly')}
              checked={connectedOnly}
              onChange={(e) => {
                setConnectedOnly(e.currentTarget.checked);
                setPage(1);
              }}
            />
          </Group>
          {fleet.isError && !fleet.data ? (
            <Alert color="red">{t('loadError')}</Alert>
          ) : !fleet.data ? (
            <Group justify="center" py="xl">
              <Loader aria-label={t('loading')} />
            </Group>
          ) : rows.length === 0 ? (
            <Text c="dimmed">{t('empty')}</Text>
          ) : (
            <ScrollArea.Autosize mah="70dvh">
              <Table highlightOnHover stickyHeader data-testid="fleet-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('columns.serial')}</Table.Th>
                    <Table.Th>{t('columns.type')}</Table.Th>
                    <Table.Th>{t('columns.connection')}</Table.Th>
                    <Table.Th>{t('columns.battery')}</Table.Th>
                    <Table.Th>{t('columns.pods')}</Table.Th>
                    <Table.Th>{t('columns.lastEvent')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((d) => (
                    <Table.Tr
                      key={d.id}
                      data-serial={d.serial}
                      aria-selected={selected === d.id}
                      bg={selected === d.id ? 'var(--mantine-color-blue-light)' : undefined}
                      style={{ cursor: 'pointer' }}
                      onClick={() => setSelected(d.id)}
                    >
                      <Table.Td>
                        <Button variant="subtle" size="compact-sm" onClick={() => setSelected(d.id)}>
                          {d.serial}
                        </Button>
                      </Table.Td>
                      <Table.Td>{t('typeLabel', { type: d.dispenser_type })}</Table.Td>
                      <Table.Td>
                        <ConnectionBadge device={d} />
                      </Table.Td>
                      <Table.Td>{d.battery === null ? '–' : `${d.battery} %`}</Table.Td>
                      <Table.Td>{d.pods_loaded ?? '–'}</Table.Td>
                      <Table.Td>
                        <LastEvent type={d.last_event_type} at={d.last_seen_at} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          )}
          {lastPage > 1 && (
            <Group justify="center">
              <Pagination
                total={lastPage}
                value={Math.min(page, lastPage)}
                onChange={setPage}
                getControlProps={(control) => ({
                  'aria-label': control === 'next' ? t('pages.next') : t('pages.previous'),
                })}
              />
            </Group>
          )}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 5 }}>
        {selected === null ? (
          <Text c="dimmed">{t('choose')}</Text>
        ) : (
          <DispenserPanel id={selected} locale={locale} />
        )}
      </Grid.Col>
    </Grid>
  );
}

function GatewayTiles() {
  const { t, i18n } = useTranslation('devices');
  const status = useGatewayStatus();
  if (!status.data) return null;
  const s = status.data;
  const number = new Intl.NumberFormat(i18n.language);
  const tiles: [string, number][] = [
    [t('gateway.stored'), s.stored],
    [t('gateway.duplicates'), s.duplicates],
    [t('gateway.refused'), s.malformed],
    [t('gateway.authFailures'), s.auth_failures],
  ];
  return (
    <Paper withBorder p="sm" radius="md" data-testid="gateway-status">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Text fw={600} size="sm">
            {t('gateway.title')}
          </Text>
          <Text size="xs" c="dimmed">
            {t(`gateway.broker.${s.broker}`, { port: s.port })}
          </Text>
        </div>
        {tiles.map(([label, value]) => (
          <div key={label}>
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            <Text fw={700}>{number.format(value)}</Text>
          </div>
        ))}
      </Group>
    </Paper>
  );
}

function DispenserPanel({ id, locale }: { id: number; locale: string }) {
  const { t } = useTranslation('devices');
  const detail = useDispenser(id);
  if (!detail.data)
    return (
      <Group justify="center" py="xl">
        <Loader aria-label={t('loading')} />
      </Group>
    );
  const d = detail.data;
  return (
    <Stack gap="sm" data-testid="dispenser-panel">
      <Group justify="space-between">
        <Title order={3} fz="h5">
          {t('detail.title', { serial: d.serial })}
        </Title>
        <Group gap="xs">
          <ConnectionBadge device={d} />
          <NewSecretAction device={d} realm="controller" />
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        {t('typeLabel', { type: d.dispenser_type })}
        {d.firmware ? ` · ${t('detail.firmware', { firmware: d.firmware })}` : ''}
        {' · '}
        {d.patient ? t('detail.assigned', { patient: d.patient.name }) : t('detail.unassigned')}
      </Text>
      <CommandConsole key={d.id} dispenser={d} />
      <Paper withBorder p="sm" radius="md">
        <Title order={4} fz="sm" mb="xs">
          {t('detail.events')}
        </Title>
        {d.recent_events.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('detail.noEvents')}
          </Text>
        ) : (
          <Stack gap={2} data-testid="dispenser-events">
            {d.recent_events.map((e) => (
              <Text key={`${e.seq}`} size="xs">
                <Text span fw={600}>
                  {t(`eventTypes.${e.type}`, { defaultValue: e.type })}
                </Text>{' '}
                <Text span c="dimmed">
                  {relative(e.occurred_at, locale)}
                </Text>
              </Text>
            ))}
          </Stack>
        )}
      </Paper>
      <Paper withBorder p="sm" radius="md">
        <Title order={4} fz="sm" mb="xs">
          {t('detail.commands')}
        </Title>
        {d.recent_commands.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('detail.noCommands')}
          </Text>
        ) : (
          <Stack gap={4}>
            {d.recent_commands.map((c) => (
              <Group key={c.id} gap="xs" wrap="nowrap">
                <Badge
                  size="xs"
                  color={c.status === 'answered' ? 'teal' : c.status === 'timed_out' ? 'red' : 'gray'}
                >
                  {t(`console.status.${c.status}`)}
                </Badge>
                <Code style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
                  {JSON.stringify(c.request)}
                </Code>
              </Group>
            ))}
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}

function CommandConsole({ dispenser }: { dispenser: DispenserDetail }) {
  const { t } = useTranslation('devices');
  const send = useSendCommand();
  const [line, setLine] = useState('status');
  const [command, setCommand] = useState('get_status');
  const [arg, setArg] = useState('');
  const type1 = dispenser.dispenser_type === 1;
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    send.mutate({ dispenser, data: type1 ? line : { command, arg: arg === '' ? null : arg } });
  };
  return (
    <Paper withBorder p="sm" radius="md">
      <form onSubmit={submit}>
        <Stack gap="xs">
          <Title order={4} fz="sm">
            {t('console.title')}
          </Title>
          <Text size="xs" c="dimmed">
            {type1 ? t('console.type1Hint') : t('console.type2Hint')}
          </Text>
          {type1 ? (
            <TextInput
              label={t('console.commandLine')}
              value={line}
              onChange={(e) => setLine(e.currentTarget.value)}
              required
              maxLength={200}
            />
          ) : (
            <Group grow>
              <TextInput
                label={t('console.command')}
                value={command}
                onChange={(e) => setCommand(e.currentTarget.value)}
                required
                maxLength={64}
              />
              <TextInput
                label={t('console.argument')}
                value={arg}
                onChange={(e) => setArg(e.currentTarget.value)}
                maxLength={200}
              />
            </Group>
          )}
          <Group>
            <Button type="submit" loading={send.isPending}>
              {t('console.send')}
            </Button>
            {send.isPending && (
              <Text size="sm" c="dimmed">
                {t('console.sending')}
              </Text>
            )}
          </Group>
          {send.isError && (
            <Alert color="red" title={t('console.failed')} data-testid="command-error">
              {send.error.message}
            </Alert>
          )}
          {send.data && !send.isPending && (
            <Stack gap={4} data-testid="command-reply">
              <Text size="sm" fw={600}>
                {t('console.reply')}
              </Text>
              <Code block>{JSON.stringify(send.data.command.reply, null, 2)}</Code>
            </Stack>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
