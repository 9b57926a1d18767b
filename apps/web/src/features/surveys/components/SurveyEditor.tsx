import { SURVEY_QUESTION_KINDS, type Survey, type SurveyQuestionInput } from '@caredeck/contracts';
import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firstFieldErrors } from '../../../shared/api-client';
import { toast } from '../../../shared/ui/toasts';
import { surveyCalls } from '../api';
import '../i18n';

type Kind = (typeof SURVEY_QUESTION_KINDS)[number];
type Option = { value: string; label: string; score: number };
type Draft = {
  /** A key for React that survives reordering (the id once saved). */
  uid: string;
  id?: number;
  text: string;
  kind: Kind;
  options: Option[];
  min: number | null;
  max: number | null;
  required: boolean;
};

let drafts = 0;
const blankQuestion = (): Draft => ({
  uid: `new-${++drafts}`,
  text: '',
  kind: 'single',
  options: [
    { value: '0', label: '', score: 0 },
    { value: '1', label: '', score: 1 },
  ],
  min: null,
  max: null,
  required: true,
});

/**
 * Create a survey or edit its name, description and questions (a new version). Questions keep their id,
 * so their answers and trigger stay. A 422 shows each message on its question; what was typed stays.
 */
export function SurveyEditor({
  programId,
  survey,
  onClose,
}: {
  programId: number;
  survey: Survey | null;
  onClose: (saved: boolean) => void;
}) {
  const { t } = useTranslation('surveys');
  const [name, setName] = useState(survey?.name ?? '');
  const [description, setDescription] = useState(survey?.description ?? '');
  const [questions, setQuestions] = useState<Draft[]>(
    survey?.questions.map((q) => ({ ...q, uid: String(q.id) })) ?? [blankQuestion()],
  );
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [busy, setBusy] = useState(false);

  const change = (i: number, patch: Partial<Draft>) =>
    setQuestions((qs) => qs.map((q, k) => (k === i ? { ...q, ...patch } : q)));
  const move = (i: number, by: number) =>
    setQuestions((qs) => {
      const next = [...qs];
      const [q] = next.splice(i, 1);
      next.splice(i + by, 0, q!);
      return next;
    });

  const save = async () => {
    setBusy(true);
    setErrors({});
    const body = {
      name,
      description,
      questions: questions.map(
        (q): SurveyQuestionInput => ({
          ...(q.id === undefined ? {} : { id: q.id }),
          text: q.text,
          kind: q.kind,
          options: q.kind === 'single' || q.kind === 'multiple' ? q.options : [],
          min: q.kind === 'number' ? q.min : null,
          max: q.kind === 'number' ? q.max : null,
          required: q.required,
        }),
      ),
    };
    try {
      const res = survey
        ? await surveyCalls.saveQuestions(survey.id, body)
        : await surveyCalls.create(programId, body);
      toast.success(res.message);
      onClose(true);
    } catch (error) {
      const fields = firstFieldErrors(error);
      if (fields) setErrors(fields);
      else toast.error(t('backendError'));
    } finally {
      setBusy(false);
    }
  };

  const questionError = (i: number) =>
    Object.entries(errors)
      .filter(([k]) => k.startsWith(`questions.${i}.`) || k === `questions.${i}`)
      .map(([, v]) => v)
      .join(' ');

  return (
    <Modal
      opened
      onClose={() => onClose(false)}
      title={survey ? t('editor.editTitle') : t('editor.newTitle')}
      size="xl"
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('editor.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            required
            data-autofocus
          />
          <Textarea
            label={t('editor.description')}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            autosize
            minRows={2}
            error={errors.description}
          />
          {survey && (
            <Text size="sm" c="dimmed">
              {t('editor.versionHint', { version: survey.version + 1 })}
            </Text>
          )}
          {questions.map((q, i) => (
            <Paper key={q.uid} withBorder p="sm" radius="md" data-testid="survey-question-editor">
              <Stack gap="xs">
                <Group align="flex-end" wrap="nowrap">
                  <Textarea
                    label={t('editor.question', { n: i + 1 })}
                    value={q.text}
                    onChange={(e) => change(i, { text: e.currentTarget.value })}
                    autosize
                    minRows={1}
                    style={{ flex: 1 }}
                    error={errors[`questions.${i}.text`]}
                  />
                  <Select
                    label={t('editor.kind')}
                    data={SURVEY_QUESTION_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
                    value={q.kind}
                    allowDeselect={false}
                    onChange={(v) => change(i, { kind: (v ?? 'single') as Kind })}
                    w={170}
                  />
                </Group>
                {(q.kind === 'single' || q.kind === 'multiple') && (
                  <Stack gap={4}>
                    {q.options.map((o, k) => (
                      <Group key={o.value} gap="xs" wrap="nowrap" align="flex-end">
                        <TextInput
                          label={k === 0 ? t('editor.optionLabel') : undefined}
                          aria-label={t('editor.optionN', { n: k + 1, question: i + 1 })}
                          value={o.label}
                          style={{ flex: 1 }}
                          onChange={(e) => {
                            const label = e.currentTarget.value;
                            change(i, { options: q.options.map((x, j) => (j === k ? { ...x, label } : x)) });
                          }}
                        />
                        <NumberInput
                          label={k === 0 ? t('editor.points') : undefined}
                          aria-label={t('editor.pointsN', { n: k + 1, question: i + 1 })}
                          value={o.score}
                          w={90}
                          onChange={(v) =>
                            change(i, {
                              options: q.options.map((x, j) =>
                                j === k ? { ...x, score: Number(v) || 0 } : x,
                              ),
                            })
                          }
                        />
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          aria-label={t('editor.removeOption', { n: k + 1 })}
                          disabled={q.options.length <= 2}
                          onClick={() => change(i, { options: q.options.filter((_, j) => j !== k) })}
                          mb={4}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Group>
                    ))}
                    <Group>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        leftSection={<IconPlus size={14} />}
                        onClick={() =>
                          change(i, {
                            options: [
                              ...q.options,
                              {
                                value: String(
                                  Math.max(-1, ...q.options.map((o) => Number(o.value) || 0)) + 1,
                                ),
                                label: '',
                                score: q.options.length,
                              },
                            ],
                          })
                        }
                      >
                        {t('editor.addOption')}
                      </Button>
                    </Group>
                  </Stack>
                )}
                {q.kind === 'number' && (
                  <Group grow>
                    <NumberInput
                      label={t('editor.min')}
                      value={q.min ?? ''}
                      onChange={(v) => change(i, { min: v === '' ? null : Number(v) })}
                    />
                    <NumberInput
                      label={t('editor.max')}
                      value={q.max ?? ''}
                      onChange={(v) => change(i, { max: v === '' ? null : Number(v) })}
                    />
                  </Group>
                )}
                {questionError(i) && (
                  <Text size="sm" c="red" role="alert">
                    {questionError(i)}
                  </Text>
                )}
                <Group justify="space-between">
                  <Checkbox
                    label={t('editor.required')}
                    checked={q.required}
                    onChange={(e) => change(i, { required: e.currentTarget.checked })}
                  />
                  <Group gap={4}>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      aria-label={t('editor.up')}
                      disabled={i === 0}
                      onClick={() => move(i, -1)}
                    >
                      <IconArrowUp size={16} />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      aria-label={t('editor.down')}
                      disabled={i === questions.length - 1}
                      onClick={() => move(i, 1)}
                    >
                      <IconArrowDown size={16} />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('editor.removeQuestion', { n: i + 1 })}
                      disabled={questions.length <= 1}
                      onClick={() => setQuestions((qs) => qs.filter((_, k) => k !== i))}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                </Group>
              </Stack>
            </Paper>
          ))}
          {errors.questions && (
            <Text size="sm" c="red" role="alert">
              {errors.questions}
            </Text>
          )}
          <Group justify="space-between">
            <Button
              variant="light"
              leftSection={<IconPlus size={16} />}
              onClick={() => setQuestions((qs) => [...qs, blankQuestion()])}
            >
              {t('editor.addQuestion')}
            </Button>
            <Group>
              <Button variant="default" onClick={() => onClose(false)}>
                {t('cancel')}
              </Button>
              <Button type="submit" loading={busy}>
                {t('editor.save')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
