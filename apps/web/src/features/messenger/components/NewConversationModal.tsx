import { Button, Group, Modal, MultiSelect, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api-client';
import { toast } from '../../../shared/ui/toasts';
import { messenger, useMentionable } from '../api';
import '../i18n';

type Props = {
  opened: boolean;
  programId: number;
  me: number;
  /** With a conversation: add people to it instead of starting one. */
  addTo?: { id: number; members: number[] };
  onClose: () => void;
  onDone: (conversationId: number) => void;
};

/** Starts a conversation with staff of the active program, or adds people to one. */
export function NewConversationModal({ opened, programId, me, addTo, onClose, onDone }: Props) {
  const { t } = useTranslation('messenger');
  const [name, setName] = useState('');
  const [users, setUsers] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [saving, setSaving] = useState(false);
  const staff = useMentionable({ programId }, '');
  const choices = (staff.data?.data ?? [])
    .filter((s) => s.id !== me && !addTo?.members.includes(s.id))
    .map((s) => ({ value: String(s.id), label: s.title ? `${s.name} (${s.title})` : s.name }));

  const save = async () => {
    setSaving(true);
    setErrors({});
    try {
      if (addTo) {
        await messenger.addUsers(addTo.id, users.map(Number));
        toast.success(t('toasts.added'));
        onDone(addTo.id);
      } else {
        const res = await messenger.create(programId, name, users.map(Number));
        toast.success(res.message);
        onDone(res.data.id);
      }
      setName('');
      setUsers([]);
    } catch (err) {
      if (isApiError(err, 422)) setErrors(err.fieldErrors);
      else toast.error(t('errors.action'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={addTo ? t('new.addTitle') : t('new.title')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Stack gap="sm">
          {!addTo && (
            <TextInput
              label={t('new.name')}
              required
              data-autofocus
              value={name}
              maxLength={120}
              error={errors.name?.[0]}
              onChange={(e) => setName(e.currentTarget.value)}
            />
          )}
          <MultiSelect
            label={t('new.people')}
            searchable
            data={choices}
            value={users}
            onChange={setUsers}
            nothingFoundMessage={t('new.nobody')}
            error={errors.users?.[0]}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={saving} disabled={addTo ? users.length === 0 : !name.trim()}>
              {addTo ? t('new.add') : t('new.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
