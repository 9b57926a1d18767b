import type { DeviceRegistered } from '@caredeck/contracts';
import { Alert, Button, Code, CopyButton, Group, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import '../i18n';

/**
 * The one-time secret and the facts a technician needs to point the device at CareDeck: after a
 * registration (AddDeviceDialog) or a new secret (NewSecretAction, ADR 051). `children` adds notes under
 * the warning; the caller's dialog closes only through `onStored`.
 */
export function DeviceSecretOnce({
  result,
  onStored,
  title,
  children,
}: {
  result: DeviceRegistered;
  onStored: () => void;
  /** The warning's title (default: the registration's). */
  title?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation('devices');
  const { connection, secret } = result;
  const broker = connection.broker;
  // The broker listens on every address: devices reach it at the host this console is reached at.
  const address = broker
    ? `mqtt://${broker.host ?? window.location.hostname}${broker.port ? `:${broker.port}` : ''}`
    : null;
  const topics = [
    ['events', connection.topics.events],
    ['replies', connection.topics.replies],
    ['commands', connection.topics.commands],
    ['rejections', connection.topics.rejections],
    ['status', connection.topics.status],
  ] as const;
  const settings = [
    address ? `${t('register.done.broker')}: ${address}` : null,
    `${t('register.done.username')}: ${connection.username}`,
    `${t('register.done.secret')}: ${secret}`,
    ...topics.map(([key, topic]) => `${t(`register.done.${key}`)}: ${topic}`),
  ]
    .filter(Boolean)
    .join('\n');
  return (
    <Stack gap="sm" data-testid="device-secret-once">
      <Alert color="red" role="alert" title={title ?? t('register.done.title')}>
        {t('register.done.once')}
      </Alert>
      {children}
      <Text size="sm">{t('register.done.signIn')}</Text>
      <Table withRowBorders={false} verticalSpacing={4}>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th scope="row">{t('register.done.broker')}</Table.Th>
            <Table.Td>
              {address ? <Code>{address}</Code> : <Text size="sm">{t('register.done.brokerOff')}</Text>}
              {broker?.kind === 'external' && (
                <Text span size="xs" c="dimmed" ml="xs">
                  {t('register.done.brokerExternal')}
                </Text>
              )}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">{t('register.done.username')}</Table.Th>
            <Table.Td>
              <Code data-testid="device-username">{connection.username}</Code>
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">{t('register.done.secret')}</Table.Th>
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                <Code data-testid="device-secret" style={{ wordBreak: 'break-all' }}>
                  {secret}
                </Code>
                <CopyButton value={secret}>
                  {({ copied, copy }) => (
                    <Button size="xs" variant="default" onClick={copy}>
                      {copied ? t('register.done.copied') : t('register.done.copy')}
                    </Button>
                  )}
                </CopyButton>
              </Group>
            </Table.Td>
          </Table.Tr>
          {topics.map(([key, topic]) => (
            <Table.Tr key={key}>
              <Table.Th scope="row">{t(`register.done.${key}`)}</Table.Th>
              <Table.Td>
                <Code>{topic}</Code>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group justify="space-between" mt="xs">
        <CopyButton value={settings}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? t('register.done.copied') : t('register.done.copyAll')}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onStored} data-autofocus>
          {t('register.done.stored')}
        </Button>
      </Group>
    </Stack>
  );
}
