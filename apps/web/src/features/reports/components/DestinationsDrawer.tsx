import type { ReportDestination } from '@caredeck/contracts';
import {
  ActionIcon,
  Alert,
  Button,
  Divider,
  Drawer,
  FileInput,
  Group,
  Loader,
  NumberInput,
  PasswordInput,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconKey, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firstFieldErrors } from '../../../shared/api-client';
import { ConfirmModal } from '../../../shared/ui/NameModal';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useDestinations, type useReportMutations } from '../api';

/** The shape of a fingerprint (not a text to translate). */
const KEY_PLACEHOLDER = 'SHA256:…';
const EMPTY = { name: '', host: '', port: 22, username: '', password: '', directory: '', host_key: '' };

/**
 * The enterprise's SFTP destinations: where recurring reports are delivered. Enterprise administrators add and
 * remove them (passwords are write-only); administrators can send a file to one at once (02 §7 sftp-file).
 */
export function DestinationsDrawer({
  opened,
  onClose,
  enterpriseId,
  canEdit,
  canSend,
  mutations,
}: {
  opened: boolean;
  onClose: () => void;
  enterpriseId: number;
  canEdit: boolean;
  canSend: boolean;
  mutations: ReturnType<typeof useReportMutations>;
}) {
  const { t } = useTranslation('reports');
  const list = useDestinations(opened ? enterpriseId : null);
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [removing, setRemoving] = useState<ReportDestination | null>(null);
  const [trusting, setTrusting] = useState<ReportDestination | null>(null);
  const [newKey, setNewKey] = useState('');
  const [sendTo, setSendTo] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const destinations = list.data?.data ?? [];

  const add = async () => {
    setErrors({});
    try {
      await mutations.addDestination.mutateAsync({
        ...form,
        port: Number(form.port) || 22,
        host_key: form.host_key.trim() || null,
      });
      toast.success(t('destinations.added'));
      setForm(EMPTY);
    } catch (error) {
      const fields = firstFieldErrors(error);
      if (fields) setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v ?? ''])));
      else toastErrors(error);
    }
  };
  const send = async () => {
    if (!sendTo || !file) return;
    try {
      const res = await mutations.sendFile.mutateAsync({ destinationId: Number(sendTo), file });
      toast.success(t('destinations.sent', { path: res.remote_path }));
      setFile(null);
    } catch (error) {
      toastErrors(error, { title: t('destinations.sendFailed') });
    }
  };

  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="lg" title={t('destinations.title')}>
      <Stack>
        <Text size="sm" c="dimmed">
          {t('destinations.intro')}
        </Text>
        {list.isError ? (
          <Alert color="red" role="alert">
            {t('loadError')}
          </Alert>
        ) : !list.data ? (
          <Loader aria-label={t('loading')} />
        ) : destinations.length === 0 ? (
          <Text c="dimmed">{t('destinations.none')}</Text>
        ) : (
          <Table data-testid="destinations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('destinations.name')}</Table.Th>
                <Table.Th>{t('destinations.server')}</Table.Th>
                <Table.Th>{t('destinations.directory')}</Table.Th>
                <Table.Th>{t('destinations.hostKey')}</Table.Th>
                {canEdit && (
                  <Table.Th>
                    <span className="sr-only">{t('columns.actions')}</span>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {destinations.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td>{d.name}</Table.Td>
                  <Table.Td>
                    {d.username}@{d.host}:{d.port}
                  </Table.Td>
                  <Table.Td>/{d.directory}</Table.Td>
                  <Table.Td>
                    {d.host_key ? (
                      <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                        {d.host_key}
                      </Text>
                    ) : (
                      <Text size="xs" c="dimmed">
                        {t('destinations.hostKeyPending')}
                      </Text>
                    )}
                  </Table.Td>
                  {canEdit && (
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('destinations.trustKey', { name: d.name })}
                        onClick={() => {
                          setNewKey('');
                          setTrusting(d);
                        }}
                      >
                        <IconKey size={16} aria-hidden />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('destinations.remove', { name: d.name })}
                        onClick={() => setRemoving(d)}
                      >
                        <IconTrash size={16} aria-hidden />
                      </ActionIcon>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {canSend && destinations.length > 0 && (
          <>
            <Divider />
            <Title order={2} fz="h4">
              {t('destinations.sendTitle')}
            </Title>
            <Select
              label={t('destinations.sendTo')}
              data={destinations.map((d) => ({ value: String(d.id), label: d.name }))}
              value={sendTo}
              onChange={setSendTo}
            />
            <FileInput
              label={t('destinations.file')}
              value={file}
              onChange={setFile}
              accept=".csv,.txt,.pdf,.xlsx,.zip"
              clearable
            />
            <Group>
              <Button
                onClick={() => void send()}
                disabled={!sendTo || !file}
                loading={mutations.sendFile.isPending}
              >
                {t('destinations.send')}
              </Button>
            </Group>
          </>
        )}
        {canEdit && (
          <>
            <Divider />
            <Title order={2} fz="h4">
              {t('destinations.addTitle')}
            </Title>
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void add();
              }}
            >
              <Stack gap="sm">
                <TextInput
                  label={t('destinations.name')}
                  value={form.name}
                  onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
                  error={errors.name}
                  required
                />
                <Group grow align="flex-start">
                  <TextInput
                    label={t('destinations.host')}
                    value={form.host}
                    onChange={(e) => setForm({ ...form, host: e.currentTarget.value })}
                    error={errors.host}
                    required
                  />
                  <NumberInput
                    label={t('destinations.port')}
                    value={form.port}
                    onChange={(value) => setForm({ ...form, port: Number(value) || 22 })}
                    min={1}
                    max={65535}
                    error={errors.port}
                  />
                </Group>
                <Group grow align="flex-start">
                  <TextInput
                    label={t('destinations.username')}
                    value={form.username}
                    onChange={(e) => setForm({ ...form, username: e.currentTarget.value })}
                    error={errors.username}
                    required
                    autoComplete="off"
                  />
                  <PasswordInput
                    label={t('destinations.password')}
                    value={form.password}
                    onChange={(e) => setForm({ ...form, password: e.currentTarget.value })}
                    error={errors.password}
                    required
                    autoComplete="new-password"
                  />
                </Group>
                <TextInput
                  label={t('destinations.directory')}
                  description={t('destinations.directoryHint')}
                  value={form.directory}
                  onChange={(e) => setForm({ ...form, directory: e.currentTarget.value })}
                  error={errors.directory}
                />
                <TextInput
                  label={t('destinations.hostKey')}
                  description={t('destinations.hostKeyHint')}
                  placeholder={KEY_PLACEHOLDER}
                  value={form.host_key}
                  onChange={(e) => setForm({ ...form, host_key: e.currentTarget.value })}
                  error={errors.host_key}
                  autoComplete="off"
                />
                <Group>
                  <Button type="submit" loading={mutations.addDestination.isPending}>
                    {t('destinations.add')}
                  </Button>
                </Group>
              </Stack>
            </form>
          </>
        )}
      </Stack>
      {trusting && (
        <ConfirmModal
          title={t('destinations.trustTitle')}
          body={
            <Stack gap="sm">
              <Text>{t('destinations.trustBody', { name: trusting.name })}</Text>
              <Text size="xs" c="dimmed">
                {t('destinations.currentKey', { key: trusting.host_key ?? t('destinations.hostKeyPending') })}
              </Text>
              <TextInput
                label={t('destinations.newKey')}
                placeholder={KEY_PLACEHOLDER}
                value={newKey}
                onChange={(e) => setNewKey(e.currentTarget.value)}
                autoComplete="off"
                data-autofocus
              />
            </Stack>
          }
          confirm={t('destinations.trustConfirm')}
          onClose={() => setTrusting(null)}
          onConfirm={async () => {
            await mutations.trustHostKey.mutateAsync({ id: trusting.id, hostKey: newKey.trim() || null });
            return { message: t('destinations.trusted') };
          }}
        />
      )}
      {removing && (
        <ConfirmModal
          title={t('destinations.confirmRemoveTitle')}
          body={<Text>{t('destinations.confirmRemoveBody', { name: removing.name })}</Text>}
          confirm={t('destinations.removeConfirm')}
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await mutations.removeDestination.mutateAsync(removing.id);
            return { message: t('destinations.removed') };
          }}
        />
      )}
    </Drawer>
  );
}
