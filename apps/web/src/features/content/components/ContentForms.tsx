import { TEMPLATE_PLACEHOLDERS, type TextMessageTemplateBody } from '@caredeck/contracts';
import { Button, Checkbox, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firstFieldErrors } from '../../../shared/api-client';
import { refusalMessage } from '../../../shared/refusal';
import { toast } from '../../../shared/ui/toasts';
import type { ContentCall } from '../api';
import '../i18n';

type FieldErrors = Record<string, string | undefined>;

/**
 * Runs a save: a 422 puts each field's first message under its field and keeps the form open with what was
 * typed; any other failure is the spec's 'Backend error!' toast (02 §8).
 */
export function useSave() {
  const { t } = useTranslation('content');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const run = async (save: ContentCall, done: () => void) => {
    setBusy(true);
    setErrors({});
    try {
      const res = await save();
      toast.success(res.message);
      done();
    } catch (error) {
      const fields = firstFieldErrors(error);
      if (fields) setErrors(fields);
      else toast.error(refusalMessage(error) ?? t('backendError'));
    } finally {
      setBusy(false);
    }
  };
  return { busy, errors, run };
}

export function ContentModal({
  categoryName,
  onClose,
  onSave,
}: {
  categoryName: string;
  onClose: () => void;
  onSave: ContentCall<{ title: string; body: string; url: string | null }>;
}) {
  const { t } = useTranslation('content');
  const [draft, setDraft] = useState({ title: '', body: '', url: '' });
  const { busy, errors, run } = useSave();
  return (
    <Modal opened onClose={onClose} title={t('library.addTo', { name: categoryName })} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(() => onSave({ ...draft, url: draft.url.trim() || null }), onClose);
        }}
      >
        <Stack>
          <TextInput
            label={t('library.contentTitle')}
            value={draft.title}
            required
            data-autofocus
            maxLength={120}
            error={errors.title}
            onChange={(e) => setDraft({ ...draft, title: e.currentTarget.value })}
          />
          <Textarea
            label={t('library.contentBody')}
            autosize
            minRows={3}
            maxRows={10}
            maxLength={5000}
            value={draft.body}
            error={errors.body}
            onChange={(e) => setDraft({ ...draft, body: e.currentTarget.value })}
          />
          <TextInput
            label={t('library.link')}
            description={t('library.linkHint')}
            inputMode="url"
            value={draft.url}
            error={errors.url}
            onChange={(e) => setDraft({ ...draft, url: e.currentTarget.value })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={busy} disabled={!draft.title.trim()}>
              {t('save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

const TEMPLATE_MAX = 1600;

export function TemplateModal({
  initial,
  onClose,
  onSave,
}: {
  initial: TextMessageTemplateBody | null;
  onClose: () => void;
  onSave: ContentCall<TextMessageTemplateBody>;
}) {
  const { t } = useTranslation('content');
  const [draft, setDraft] = useState({
    name: initial?.name ?? '',
    body: initial?.body ?? '',
    question: initial?.question ?? false,
  });
  const { busy, errors, run } = useSave();
  return (
    <Modal opened onClose={onClose} title={initial ? t('templates.edit') : t('templates.new')} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(() => onSave(draft), onClose);
        }}
      >
        <Stack>
          <TextInput
            label={t('templates.name')}
            value={draft.name}
            required
            data-autofocus
            maxLength={120}
            error={errors.name}
            onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
          />
          <Textarea
            label={t('templates.body')}
            required
            autosize
            minRows={3}
            maxRows={10}
            maxLength={TEMPLATE_MAX}
            value={draft.body}
            error={errors.body}
            description={t('templates.hint', {
              placeholders: TEMPLATE_PLACEHOLDERS.join(' '),
              count: draft.body.length,
              max: TEMPLATE_MAX,
            })}
            onChange={(e) => setDraft({ ...draft, body: e.currentTarget.value })}
          />
          <Checkbox
            label={t('templates.question')}
            description={t('templates.questionHint')}
            checked={draft.question}
            onChange={(e) => setDraft({ ...draft, question: e.currentTarget.checked })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={busy} disabled={!draft.name.trim() || !draft.body.trim()}>
              {t('save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A confirmation before deleting: says what goes with it. */
