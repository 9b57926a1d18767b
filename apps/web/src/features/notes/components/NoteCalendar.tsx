import type { Note } from '@caredeck/contracts';
import {
  ActionIcon,
  Alert,
  Badge,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageText } from '../../../shared/ui/messageText';
import { localDay } from '../../../shared/ui/period';
import { useNoteCalendar } from '../api';
import '../i18n';

/** 1–7 January 2024: a Monday to a Sunday, for the weekday names. */
const WEEK = [1, 2, 3, 4, 5, 6, 7];
const pad = (n: number) => String(n).padStart(2, '0');

/** A month of a patient's notes: the notes written and the follow-ups due each day; a day lists them. */
export function NoteCalendar({ patientId }: { patientId: number }) {
  const { t, i18n } = useTranslation('notes');
  const today = new Date();
  const [month, setMonth] = useState({ year: today.getFullYear(), month: today.getMonth() });
  const [chosen, setChosen] = useState<string | null>(null);
  const days = new Date(month.year, month.month + 1, 0).getDate();
  const start = `${month.year}-${pad(month.month + 1)}-01`;
  const end = `${month.year}-${pad(month.month + 1)}-${pad(days)}`;
  const calendar = useNoteCalendar(patientId, start, end);
  const title = new Intl.DateTimeFormat(i18n.language, { month: 'long', year: 'numeric' }).format(
    new Date(month.year, month.month, 1),
  );
  const weekday = new Intl.DateTimeFormat(i18n.language, { weekday: 'short' });
  // Monday first.
  const lead = (new Date(month.year, month.month, 1).getDay() + 6) % 7;
  const written = new Map<string, Note[]>();
  const due = new Map<string, Note[]>();
  for (const note of calendar.data?.data ?? []) {
    const d = localDay(note.created_at);
    written.set(d, [...(written.get(d) ?? []), note]);
    if (note.follow_up) due.set(note.follow_up.date, [...(due.get(note.follow_up.date) ?? []), note]);
  }
  const shift = (delta: number) => {
    const d = new Date(month.year, month.month + delta, 1);
    setMonth({ year: d.getFullYear(), month: d.getMonth() });
    setChosen(null);
  };
  const dayNotes = chosen
    ? [
        ...new Map(
          [...(written.get(chosen) ?? []), ...(due.get(chosen) ?? [])].map((n) => [n.id, n]),
        ).values(),
      ]
    : [];

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <ActionIcon variant="default" aria-label={t('previousMonth')} onClick={() => shift(-1)}>
          <IconChevronLeft size={16} />
        </ActionIcon>
        <Text fw={600} aria-live="polite">
          {title}
        </Text>
        <ActionIcon variant="default" aria-label={t('nextMonth')} onClick={() => shift(1)}>
          <IconChevronRight size={16} />
        </ActionIcon>
      </Group>
      {calendar.data && calendar.data.total > calendar.data.data.length && (
        <Text size="xs" c="dimmed" data-testid="calendar-showing">
          {t('calendarShowing', { shown: calendar.data.data.length, count: calendar.data.total })}
        </Text>
      )}
      {calendar.isError ? (
        <Alert color="red">{t('loadError')}</Alert>
      ) : !calendar.data ? (
        <Loader size="sm" aria-label={t('loading')} />
      ) : (
        <SimpleGrid cols={7} spacing={4} data-testid="note-calendar">
          {WEEK.map((d) => (
            <Text key={d} size="xs" c="dimmed" ta="center">
              {weekday.format(new Date(2024, 0, d))}
            </Text>
          ))}
          {WEEK.slice(0, lead).map((d) => (
            <div key={`lead-${d}`} />
          ))}
          {Array.from({ length: days }, (_, i) => {
            const iso = `${month.year}-${pad(month.month + 1)}-${pad(i + 1)}`;
            const notes = written.get(iso)?.length ?? 0;
            const followUps = due.get(iso)?.length ?? 0;
            return (
              <UnstyledButton
                key={iso}
                onClick={() => setChosen(iso)}
                aria-pressed={chosen === iso}
                aria-label={t('dayLabel', { day: i + 1, notes, followUps })}
                p={4}
                style={{
                  border: '1px solid var(--mantine-color-default-border)',
                  borderRadius: 6,
                  minHeight: 56,
                  background: chosen === iso ? 'var(--mantine-color-default-hover)' : undefined,
                }}
              >
                <Text size="xs" fw={600}>
                  {i + 1}
                </Text>
                {notes > 0 && (
                  <Badge size="xs" variant="light" color="blue.9" aria-hidden>
                    {notes}
                  </Badge>
                )}
                {followUps > 0 && (
                  <Badge size="xs" variant="light" color="orange.9" aria-hidden ml={2}>
                    {followUps}
                  </Badge>
                )}
              </UnstyledButton>
            );
          })}
        </SimpleGrid>
      )}
      {chosen && (
        <Paper withBorder p="sm" radius="md">
          {dayNotes.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('dayEmpty')}
            </Text>
          ) : (
            <Stack gap="xs">
              {dayNotes.map((n) => (
                <div key={n.id}>
                  <Text size="xs" c="dimmed">
                    {n.follow_up?.date === chosen ? t('followUpThatDay') : t('writtenThatDay')}
                    {` · ${n.author?.name ?? t('someone')}`}
                  </Text>
                  <MessageText>{n.body || n.files.map((f) => f.file_name).join(', ')}</MessageText>
                </div>
              ))}
            </Stack>
          )}
        </Paper>
      )}
    </Stack>
  );
}
