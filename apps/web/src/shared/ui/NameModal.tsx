import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firstFieldErrors } from '../api-client';
import { refusalMessage } from '../refusal';
import type { SaveCall } from './saveCall';
import { toast } from './toasts';

/**
 * Runs a save: success shows the answer's message; a 422 puts each field's first message under its field and
 * keeps the form open with what was typed; any other failure is 'Backend error!' (02 §8).
 */
export function useSave() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const run = async (save: SaveCall, done: () => void) => {
    setBusy(true);
    setErrors({});
    try {
      toast.success((await save()).message);
      done();
    } catch (error) {
      const fields = firstFieldErrors(error);
      if (fields) setErrors(fields);
      else toast.error(refusalMessage(error) ?? t('errors.backendError'));
    } finally {
      setBusy(false);
    }
  };
  return { busy, errors, run };
}

/** A one-field form: create or rename a folder, a category, a stage… (the field's 422 shows under it). */
export function NameModal({
  title,
  label,
  initial = '',
  onClose,
  onSave,
}: {
  title: string;
  label: string;
  initial?: string;
  onClose: () => void;
  onSave: SaveCall<string>;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const { busy, errors, run } = useSave();
  return (
    <Modal opened onClose={onClose} title={title}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(() => onSave(name), onClose);
        }}
      >
        <Stack>
          <TextInput
            label={label}
            value={name}
            required
            data-autofocus
            maxLength={120}
            error={errors.name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={busy} disabled={!name.trim()}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A confirmation before something is deleted or undone; the action runs only on the danger button. */
export function ConfirmModal({
  title,
  body,
  confirm,
  onClose,
  onConfirm,
}: {
  title: string;
  body: ReactNode;
  /** The danger button's words (default: Delete). */
  confirm?: string;
  onClose: () => void;
  onConfirm: SaveCall;
}) {
  const { t } = useTranslation();
  const { busy, errors, run } = useSave();
  const failure = Object.values(errors).filter(Boolean).join(' ');
  return (
    <Modal opened onClose={onClose} title={title}>
      <Stack>
        {body}
        {failure && <Alert role="alert">{failure}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button color="danger" loading={busy} onClick={() => void run(onConfirm, onClose)}>
            {confirm ?? t('common.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
