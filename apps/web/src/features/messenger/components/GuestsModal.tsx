import { type GuestChannel, guestContract as g, patientRecordContract } from '@caredeck/contracts';
import { Button, Group, Modal, SegmentedControl, Select, Stack, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isApiError } from '../../../shared/api-client';
import { toast } from '../../../shared/ui/toasts';
import '../i18n';

type Props = { opened: boolean; conversationId: number; programId: number; onClose: () => void };

/**
 * Invites a patient of the program (or whoever holds their phone or e-mail, e.g. a caregiver) as a guest of
 * the conversation, and lists the guest links with their state; a link can be revoked at once.
 */
export function GuestsModal({ opened, conversationId, programId, onClose }: Props) {
  const { t, i18n } = useTranslation('messenger');
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [patient, setPatient] = useState<string | null>(null);
  const [channel, setChannel] = useState<GuestChannel>('sms');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const invites = useQuery({
    queryKey: ['messenger', 'guests', conversationId],
    queryFn: ({ signal }) => api.call(g.invites, { params: { id: String(conversationId) } }, { signal }),
    enabled: opened,
  });
  const patients = useQuery({
    queryKey: ['messenger', 'guest-patients', search],
    queryFn: ({ signal }) => api.call(patientRecordContract.search, { query: { search } }, { signal }),
    enabled: opened && search.trim().length >= 2,
    placeholderData: keepPreviousData,
  });
  const choices = (patients.data?.data ?? [])
    .filter((p) => p.program.id === programId)
    .map((p) => ({ value: String(p.id), label: p.mrn ? `${p.name} (${p.mrn})` : p.name }));

  const reload = () =>
    void queryClient.invalidateQueries({ queryKey: ['messenger', 'guests', conversationId] });
  const invite = async () => {
    if (!patient) return;
    setSending(true);
    setError(null);
    try {
      const res = await api.call(g.invite, {
        params: { programId: String(programId), receiverId: patient },
        query: { conversation_id: String(conversationId), channel },
      });
      toast.success(res.message);
      setPatient(null);
      reload();
    } catch (err) {
      setError(
        isApiError(err) ? (Object.values(err.fieldErrors)[0]?.[0] ?? err.message) : t('errors.action'),
      );
    } finally {
      setSending(false);
    }
  };
  const revoke = async (inviteId: number) => {
    try {
      const res = await api.call(g.revoke, {
        params: { id: String(conversationId), inviteId: String(inviteId) },
      });
      toast.success(res.message);
      reload();
    } catch {
      toast.error(t('errors.action'));
    }
  };
  const rows = invites.data?.data ?? [];

  return (
    <Modal opened={opened} onClose={onClose} title={t('guests.title')} size="lg">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('guests.hint')}
        </Text>
        <Select
          label={t('guests.patient')}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          data={choices}
          value={patient}
          onChange={setPatient}
          nothingFoundMessage={search.trim().length >= 2 ? t('guests.noPatient') : t('guests.typeName')}
          error={error}
        />
        <Group justify="space-between">
          <SegmentedControl
            value={channel}
            onChange={(v) => setChannel(v as GuestChannel)}
            data={[
              { value: 'sms', label: t('guests.sms') },
              { value: 'email', label: t('guests.email') },
            ]}
          />
          <Button onClick={() => void invite()} loading={sending} disabled={!patient}>
            {t('guests.send')}
          </Button>
        </Group>
        {rows.length > 0 && (
          <Table.ScrollContainer minWidth={480}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('guests.guest')}</Table.Th>
                  <Table.Th>{t('guests.sentTo')}</Table.Th>
                  <Table.Th>{t('guests.state')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => {
                  const live = !r.revoked_at && new Date(r.expires_at).getTime() > Date.now();
                  return (
                    <Table.Tr key={r.id}>
                      <Table.Td>{r.guest_name}</Table.Td>
                      <Table.Td>{r.sent_to}</Table.Td>
                      <Table.Td>
                        {r.revoked_at
                          ? t('guests.revoked')
                          : live
                            ? t('guests.validUntil', { time: time.format(new Date(r.expires_at)) })
                            : t('guests.expired')}
                      </Table.Td>
                      <Table.Td>
                        {live && (
                          <Button
                            size="compact-xs"
                            color="red"
                            variant="subtle"
                            onClick={() => void revoke(r.id)}
                          >
                            {t('guests.revoke')}
                          </Button>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Modal>
  );
}
