import type { SmsQuestion } from '@caredeck/contracts';
import { Button, Loader, Menu, Text } from '@mantine/core';
import { IconTemplate } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFolders, useSmsQuestions } from '../api';
import '../i18n';

/**
 * "Templates" beside a composer: the SMS questions (standard, then one's own), then one's other text
 * messages by folder. Choosing one hands its text to `onPick` (placeholders still in it).
 */
export function TemplatePicker({ programId, onPick }: { programId: number; onPick: (body: string) => void }) {
  const { t } = useTranslation('content');
  const [opened, setOpened] = useState(false);
  const questions = useSmsQuestions(programId, opened);
  const folders = useFolders(programId);
  const standardLabel: Record<string, string> = {
    took_medication: t('picker.standard.took_medication'),
    side_effects: t('picker.standard.side_effects'),
    feeling: t('picker.standard.feeling'),
    refill: t('picker.standard.refill'),
    reading_reminder: t('picker.standard.reading_reminder'),
  };
  const label = (q: SmsQuestion) => (q.source === 'standard' ? (standardLabel[q.key] ?? q.key) : q.key);
  const others = (folders.data?.data ?? [])
    .map((f) => ({ ...f, text_messages: f.text_messages.filter((m) => !m.question) }))
    .filter((f) => f.text_messages.length > 0);
  const failed = questions.isError || folders.isError;

  return (
    <Menu opened={opened} onChange={setOpened} position="top-start" withinPortal shadow="md" width={340}>
      <Menu.Target>
        <Button variant="default" size="sm" leftSection={<IconTemplate size={16} />}>
          {t('picker.button')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown mah={360} style={{ overflowY: 'auto' }}>
        {failed ? (
          <Text size="sm" c="red.9" p="xs">
            {t('picker.failed')}
          </Text>
        ) : !questions.data ? (
          <Loader size="xs" m="xs" aria-label={t('loading')} />
        ) : (
          <>
            <Menu.Label>{t('picker.questions')}</Menu.Label>
            {questions.data.data.map((q) => (
              <Menu.Item key={`${q.source}-${q.id ?? q.key}`} onClick={() => onPick(q.body)}>
                {label(q)}
              </Menu.Item>
            ))}
            {others.map((folder) => (
              <div key={folder.id}>
                <Menu.Divider />
                <Menu.Label>{`${t('picker.mine')} · ${folder.name}`}</Menu.Label>
                {folder.text_messages.map((m) => (
                  <Menu.Item key={m.id} onClick={() => onPick(m.body)}>
                    {m.name}
                  </Menu.Item>
                ))}
              </div>
            ))}
            {questions.data.data.every((q) => q.source === 'standard') && others.length === 0 && (
              <Text size="xs" c="dimmed" px="sm" pb="xs">
                {t('picker.none')}
              </Text>
            )}
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
