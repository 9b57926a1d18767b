import { NOTE_MAX_CHARS, NOTE_MAX_FILES, type Note } from '@caredeck/contracts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  CloseButton,
  FileButton,
  Group,
  Loader,
  Menu,
  Modal,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { IconDots, IconPaperclip, IconPin } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firstFieldErrors } from '../../../shared/api-client';
import { DateField } from '../../../shared/ui/DateField';
import { MessageText } from '../../../shared/ui/messageText';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useStaffOptions } from '../../staff/api';
import { NOTES_KEY, type NoteStep, noteCalls, useNextFollowUp, useNotes } from '../api';
import { NoteCalendar } from './NoteCalendar';
import { NoteHistoryModal } from './NoteHistoryModal';
import '../i18n';

type Staff = { value: string; label: string }[];

/**
 * A patient's notes (02 §7): write one (files, internal, escalate, a follow-up), the list pinned first with
 * more pages appended, or a month calendar; each note can be pinned, marked internal, edited by its author
 * (earlier versions kept), escalated or its escalation inactivated, deleted after a confirmation.
 */
export function NotesPanel({
  programId,
  patientId,
  me,
}: {
  programId: number;
  patientId: number;
  me: number;
}) {
  const { t, i18n } = useTranslation('notes');
  const [view, setView] = useState<'list' | 'calendar'>('list');
  const next = useNextFollowUp(programId, patientId);
  const staff = useStaffOptions(programId);
  const day = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' });
  const formatDay = (iso: string) => day.format(new Date(`${iso}T00:00:00Z`));
  const upcoming = next.data?.data;
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} fz="h4">
          {t('title')}
        </Title>
        <SegmentedControl
          aria-label={t('view')}
          value={view}
          onChange={(v) => setView(v as 'list' | 'calendar')}
          data={[
            { value: 'list', label: t('list') },
            { value: 'calendar', label: t('calendar') },
          ]}
        />
      </Group>
      {upcoming && (
        <Alert color={upcoming.due ? 'orange' : 'blue'} data-testid="next-follow-up">
          {t(upcoming.due ? 'nextDue' : 'next', {
            date: formatDay(upcoming.date),
            name: upcoming.admin?.name ?? t('nobody'),
          })}
        </Alert>
      )}
      <Composer patientId={patientId} staff={staff} me={me} />
      {view === 'list' ? (
        <NoteList patientId={patientId} me={me} staff={staff} formatDay={formatDay} />
      ) : (
        <NoteCalendar patientId={patientId} />
      )}
    </Stack>
  );
}

function Composer({ patientId, staff, me }: { patientId: number; staff: Staff; me: number }) {
  const { t } = useTranslation('notes');
  const queryClient = useQueryClient();
  const [body, setBody] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [internal, setInternal] = useState(false);
  const [escalate, setEscalate] = useState(false);
  const [date, setDate] = useState('');
  const [assignee, setAssignee] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});

  const save = async () => {
    setBusy(true);
    setErrors({});
    try {
      const res = await noteCalls.create(
        patientId,
        {
          body,
          internal,
          escalate,
          follow_up_date: date || undefined,
          follow_up_admin_id: date ? Number(assignee ?? me) : undefined,
        },
        files,
      );
      toast.success(res.message);
      setBody('');
      setFiles([]);
      setInternal(false);
      setEscalate(false);
      setDate('');
      setAssignee(null);
      void queryClient.invalidateQueries({ queryKey: [...NOTES_KEY, patientId] });
    } catch (error) {
      // 02 §8: the first message of each field of the errors object; what was typed stays.
      setErrors(firstFieldErrors(error) ?? {});
      toastErrors(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <Stack gap="xs">
        <Textarea
          label={t('composer.label')}
          placeholder={t('composer.placeholder')}
          autosize
          minRows={2}
          maxRows={10}
          maxLength={NOTE_MAX_CHARS}
          value={body}
          error={errors.body ?? errors.files}
          onChange={(e) => setBody(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              void save();
            }
          }}
        />
        {files.length > 0 && (
          <Group gap="xs">
            {files.map((f, i) => (
              <Group key={`${f.name}-${f.size}-${f.lastModified}`} gap={2}>
                <Text size="xs">{f.name}</Text>
                <CloseButton
                  size="xs"
                  aria-label={t('composer.removeFile', { name: f.name })}
                  onClick={() => setFiles(files.filter((_, j) => j !== i))}
                />
              </Group>
            ))}
          </Group>
        )}
        <Group gap="md" align="flex-end" wrap="wrap">
          <DateField
            label={t('composer.followUp')}
            value={date}
            onChange={setDate}
            error={errors.follow_up_date}
            w={170}
          />
          {date && (
            <Select
              label={t('composer.assignee')}
              data={staff}
              value={assignee ?? String(me)}
              onChange={setAssignee}
              allowDeselect={false}
              searchable
              error={errors.follow_up_admin_id}
              w={220}
            />
          )}
          <Checkbox
            label={t('composer.internal')}
            checked={internal}
            onChange={(e) => setInternal(e.currentTarget.checked)}
          />
          <Checkbox
            label={t('composer.escalate')}
            checked={escalate}
            onChange={(e) => setEscalate(e.currentTarget.checked)}
          />
        </Group>
        <Group justify="space-between">
          <FileButton
            multiple
            onChange={(picked) => setFiles([...files, ...picked].slice(0, NOTE_MAX_FILES))}
          >
            {(props) => (
              <Button {...props} variant="default" size="xs" leftSection={<IconPaperclip size={14} />}>
                {t('composer.attach')}
              </Button>
            )}
          </FileButton>
          <Button type="submit" loading={busy} disabled={!body.trim() && files.length === 0}>
            {t('composer.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function NoteList({
  patientId,
  me,
  staff,
  formatDay,
}: {
  patientId: number;
  me: number;
  staff: Staff;
  formatDay: (iso: string) => string;
}) {
  const { t } = useTranslation('notes');
  const notes = useNotes(patientId);
  if (notes.isError && !notes.data)
    return (
      <Alert color="red" title={t('loadError')}>
        <Button size="xs" variant="light" onClick={() => void notes.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  if (!notes.data) return <Loader size="sm" aria-label={t('loading')} />;
  const rows = notes.data.pages.flatMap((p) => p.data);
  if (rows.length === 0) return <Text c="dimmed">{t('empty')}</Text>;
  return (
    <Stack gap="sm" data-testid="notes">
      {rows.map((note) => (
        <NoteCard key={note.id} note={note} me={me} staff={staff} formatDay={formatDay} />
      ))}
      {notes.hasNextPage && (
        <Button
          variant="subtle"
          size="xs"
          w="fit-content"
          mx="auto"
          loading={notes.isFetchingNextPage}
          onClick={() => void notes.fetchNextPage()}
        >
          {t('more', { shown: rows.length, total: notes.data.pages.at(-1)?.total ?? rows.length })}
        </Button>
      )}
    </Stack>
  );
}

function NoteCard({
  note,
  me,
  staff,
  formatDay,
}: {
  note: Note;
  me: number;
  staff: Staff;
  formatDay: (iso: string) => string;
}) {
  const { t, i18n } = useTranslation('notes');
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [moving, setMoving] = useState<{ date: string; admin: string | null } | null>(null);
  const [history, setHistory] = useState(false);
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const reload = () => void queryClient.invalidateQueries({ queryKey: [...NOTES_KEY, note.patient_id] });
  const run = async (step: NoteStep, after?: () => void) => {
    try {
      toast.success((await step()).message);
      after?.();
    } catch (error) {
      toastErrors(error);
    } finally {
      reload();
    }
  };
  const f = note.follow_up;
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      data-note-id={note.id}
      component="article"
      aria-label={t('noteBy', {
        name: note.author?.name ?? t('someone'),
        time: time.format(new Date(note.created_at)),
      })}
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Group gap={6} wrap="wrap">
          {note.pinned && <IconPin size={14} aria-label={t('badges.pinned')} />}
          <Text size="sm" fw={600}>
            {note.author?.name ?? t('someone')}
          </Text>
          <Text size="xs" c="dimmed">
            {time.format(new Date(note.created_at))}
          </Text>
          {note.internal && (
            <Badge size="xs" variant="outline" color="gray.8">
              {t('badges.internal')}
            </Badge>
          )}
          {note.kind === 'sms_image' && (
            <Badge size="xs" variant="outline" color="blue.9">
              {t('badges.smsImage')}
            </Badge>
          )}
          {note.escalation?.active && (
            <Badge size="xs" variant="filled" color="red.9">
              {t('badges.escalated')}
            </Badge>
          )}
          {note.edits > 0 && (
            <Anchor component="button" type="button" size="xs" onClick={() => setHistory(true)}>
              {t('badges.edited', { count: note.edits })}
            </Anchor>
          )}
        </Group>
        <Menu position="bottom-end">
          <Menu.Target>
            <Button variant="subtle" size="compact-sm" aria-label={t('actions.label')}>
              <IconDots size={16} />
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => void run(() => noteCalls.pin(note.id, !note.pinned))}>
              {note.pinned ? t('actions.unpin') : t('actions.pin')}
            </Menu.Item>
            <Menu.Item onClick={() => void run(() => noteCalls.internal(note.id, !note.internal))}>
              {note.internal ? t('actions.share') : t('actions.internal')}
            </Menu.Item>
            {note.author?.id === me && (
              <Menu.Item onClick={() => setEditing(note.body)}>{t('actions.edit')}</Menu.Item>
            )}
            {!note.escalation?.active && (
              <Menu.Item onClick={() => void run(() => noteCalls.escalation(note.id, true))}>
                {t('actions.escalate')}
              </Menu.Item>
            )}
            <Menu.Item onClick={() => setHistory(true)}>{t('actions.history')}</Menu.Item>
            <Menu.Divider />
            <Menu.Item color="red" onClick={() => setDeleting(true)}>
              {t('actions.delete')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
      {note.body && <MessageText>{note.body}</MessageText>}
      {note.files.length > 0 && (
        <Group gap="sm" mt={4}>
          {note.files.map((file) => (
            <Anchor
              key={file.id}
              component="button"
              type="button"
              size="sm"
              onClick={() =>
                void noteCalls.download(note.id, file.id).catch(() => toast.error(t('downloadError')))
              }
            >
              {file.file_name}
            </Anchor>
          ))}
        </Group>
      )}
      {note.escalation?.active && (
        <Group gap="xs" mt={6}>
          <Text size="xs" c="red.9">
            {t('escalatedBy', { name: note.escalation.by?.name ?? t('someone') })}
          </Text>
          <Button
            size="compact-xs"
            variant="light"
            color="red"
            onClick={() => void run(() => noteCalls.escalation(note.id, false))}
          >
            {t('actions.inactivate')}
          </Button>
        </Group>
      )}
      {f && (
        <Group gap="xs" mt={6} data-testid="follow-up">
          <Text size="xs">
            {f.completed_at
              ? t('followUp.done', { date: formatDay(f.date), name: f.completed_by?.name ?? t('someone') })
              : t('followUp.open', { date: formatDay(f.date), name: f.admin?.name ?? t('nobody') })}
          </Text>
          {f.due && (
            <Badge size="xs" color="red.9" variant="filled">
              {t('followUp.due')}
            </Badge>
          )}
          {!f.completed_at && (
            <>
              <Button
                size="compact-xs"
                variant="light"
                onClick={() => void run(() => noteCalls.complete(f.id))}
              >
                {t('followUp.complete')}
              </Button>
              <Button
                size="compact-xs"
                variant="default"
                onClick={() => setMoving({ date: f.date, admin: f.admin ? String(f.admin.id) : null })}
              >
                {t('followUp.move')}
              </Button>
            </>
          )}
        </Group>
      )}

      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={t('actions.edit')} size="lg">
        <Stack>
          <Textarea
            label={t('composer.label')}
            autosize
            minRows={3}
            maxLength={NOTE_MAX_CHARS}
            value={editing ?? ''}
            data-autofocus
            onChange={(e) => setEditing(e.currentTarget.value)}
          />
          <Text size="xs" c="dimmed">
            {t('editHint')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setEditing(null)}>
              {t('cancel')}
            </Button>
            <Button
              disabled={!editing?.trim()}
              onClick={() =>
                void run(
                  () => noteCalls.update(note.id, editing ?? ''),
                  () => setEditing(null),
                )
              }
            >
              {t('save')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={deleting} onClose={() => setDeleting(false)} title={t('deleteTitle')}>
        <Stack>
          <Text size="sm">{t('deleteBody')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(false)}>
              {t('cancel')}
            </Button>
            <Button
              color="danger"
              onClick={() =>
                void run(
                  () => noteCalls.remove(note.id),
                  () => setDeleting(false),
                )
              }
            >
              {t('actions.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={moving !== null} onClose={() => setMoving(null)} title={t('followUp.move')}>
        {moving && (
          <Stack>
            <DateField
              label={t('composer.followUp')}
              value={moving.date}
              onChange={(date) => setMoving({ ...moving, date })}
              required
              data-autofocus
            />
            <Select
              label={t('composer.assignee')}
              data={staff}
              value={moving.admin}
              onChange={(admin) => setMoving({ ...moving, admin })}
              searchable
              clearable
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setMoving(null)}>
                {t('cancel')}
              </Button>
              <Button
                disabled={!moving.date}
                onClick={() =>
                  void run(
                    () => noteCalls.move(f!.id, moving.date, moving.admin ? Number(moving.admin) : null),
                    () => setMoving(null),
                  )
                }
              >
                {t('save')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
      {history && <NoteHistoryModal noteId={note.id} onClose={() => setHistory(false)} />}
    </Paper>
  );
}
