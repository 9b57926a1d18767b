import type { NoteLogEntry } from '@caredeck/contracts';
import { Alert, Divider, Loader, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MessageText } from '../../../shared/ui/messageText';
import { useNoteHistory } from '../api';
import '../i18n';

/** What happened to a note (its log) and its earlier texts, newest version first. */
export function NoteHistoryModal({ noteId, onClose }: { noteId: number; onClose: () => void }) {
  const { t, i18n } = useTranslation('notes');
  const history = useNoteHistory(noteId);
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const actions: Record<NoteLogEntry['action'], string> = {
    created: t('log.created'),
    edited: t('log.edited'),
    deleted: t('log.deleted'),
    pinned: t('log.pinned'),
    unpinned: t('log.unpinned'),
    internal: t('log.internal'),
    shared: t('log.shared'),
    escalated: t('log.escalated'),
    escalation_inactivated: t('log.escalation_inactivated'),
    follow_up_set: t('log.follow_up_set'),
    follow_up_changed: t('log.follow_up_changed'),
    follow_up_completed: t('log.follow_up_completed'),
  };
  return (
    <Modal opened onClose={onClose} title={t('actions.history')} size="lg">
      {history.isError ? (
        <Alert color="red">{t('loadError')}</Alert>
      ) : !history.data ? (
        <Loader size="sm" aria-label={t('loading')} />
      ) : (
        <Stack gap="xs">
          <Stack gap={2} component="ol" style={{ margin: 0, paddingLeft: '1.2rem' }}>
            {history.data.log.map((entry) => (
              <li key={entry.id}>
                <Text size="sm">
                  {actions[entry.action]}
                  {typeof entry.detail.to === 'string' ? ` → ${entry.detail.to}` : ''}
                  {typeof entry.detail.date === 'string' && entry.action === 'follow_up_set'
                    ? ` (${entry.detail.date})`
                    : ''}
                </Text>
                <Text size="xs" c="dimmed">
                  {`${entry.admin?.name ?? t('someone')} · ${time.format(new Date(entry.at))}`}
                </Text>
              </li>
            ))}
          </Stack>
          {history.data.edits.length > 0 && (
            <>
              <Divider label={t('earlier')} labelPosition="left" />
              {history.data.edits.map((edit) => (
                <div key={edit.id}>
                  <Text size="xs" c="dimmed">
                    {t('replaced', {
                      name: edit.edited_by?.name ?? t('someone'),
                      time: time.format(new Date(edit.edited_at)),
                    })}
                  </Text>
                  <MessageText>{edit.body}</MessageText>
                </div>
              ))}
            </>
          )}
        </Stack>
      )}
    </Modal>
  );
}
