import { Button, Checkbox, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast, toastErrorsOr } from '../../../shared/ui/toasts';
import { type MessengerPrefs, useMessengerPrefs } from '../prefs';
import '../i18n';

/** The messenger's settings of the active program, kept in user memory. */
export function SettingsModal({ programId, onClose }: { programId: number; onClose: () => void }) {
  const { t } = useTranslation('messenger');
  const common = useTranslation().t;
  const { prefs, save } = useMessengerPrefs(programId);
  const [draft, setDraft] = useState<MessengerPrefs>(prefs);
  const [busy, setBusy] = useState(false);
  return (
    <Modal opened onClose={onClose} title={t('settings.title')}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          try {
            const res = await save(draft);
            toast.success(res.message);
            onClose();
          } catch (error) {
            toastErrorsOr(error, common('errors.defaultsNotSaved'));
          } finally {
            setBusy(false);
          }
        }}
      >
        <Stack>
          <Radio.Group
            label={t('settings.send')}
            value={draft.enter_sends ? 'enter' : 'ctrl'}
            onChange={(v) => setDraft({ ...draft, enter_sends: v === 'enter' })}
          >
            <Stack gap={6} mt={6}>
              <Radio value="enter" label={t('settings.enterSends')} />
              <Radio value="ctrl" label={t('settings.ctrlSends')} />
            </Stack>
          </Radio.Group>
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              {t('settings.notices')}
            </Text>
            <Checkbox
              label={t('settings.mentions')}
              checked={draft.notify_mentions}
              onChange={(e) => setDraft({ ...draft, notify_mentions: e.currentTarget.checked })}
            />
            <Checkbox
              label={t('settings.added')}
              checked={draft.notify_added}
              onChange={(e) => setDraft({ ...draft, notify_added: e.currentTarget.checked })}
            />
            <Text size="xs" c="dimmed">
              {t('settings.urgentAlways')}
            </Text>
          </Stack>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('settings.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('settings.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
