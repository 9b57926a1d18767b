import type { Survey, SurveyFolder, SurveyTrigger } from '@caredeck/contracts';
import {
  Anchor,
  Badge,
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firstFieldErrors } from '../../../shared/api-client';
import { Loaded } from '../../../shared/ui/Loaded';
import { toast } from '../../../shared/ui/toasts';
import { type Act, SURVEYS_KEY, surveyCalls, useSurveyCard } from '../api';
import '../i18n';

/**
 * One survey: its figures in the program (card), its questions, its link, its folder and its triggers.
 * Editing the questions opens the editor; triggers are for those who may set them.
 */
export function SurveyDetail({
  programId,
  survey,
  folders,
  canEdit,
  canSetTriggers,
  onEdit,
}: {
  programId: number;
  survey: Survey;
  folders: SurveyFolder[];
  canEdit: boolean;
  canSetTriggers: boolean;
  onEdit: () => void;
}) {
  const { t } = useTranslation('surveys');
  const card = useSurveyCard(programId, survey.id);
  const queryClient = useQueryClient();
  const reload = () => queryClient.invalidateQueries({ queryKey: SURVEYS_KEY });
  const questionText = new Map(survey.questions.map((q) => [q.id, `${q.position}. ${q.text}`]));

  const act: Act = async (call) => {
    try {
      toast.success((await call()).message);
    } catch (error) {
      const fields = firstFieldErrors(error);
      toast.error(fields ? Object.values(fields).join(' ') : t('backendError'));
    } finally {
      await reload();
    }
  };

  return (
    <Stack gap="md">
      <div>
        <Title order={2} fz="h3">
          {survey.name}
        </Title>
        {survey.description && <Text c="dimmed">{survey.description}</Text>}
        <Text size="sm" c="dimmed">
          {t('detail.meta', {
            version: survey.version,
            questions: t('detail.questionCount', { count: survey.questions.length }),
            max: t('detail.maxPoints', { count: survey.max_score }),
          })}
        </Text>
      </div>
      <Loaded query={card} texts={{ loading: t('loading'), error: t('detail.cardError'), retry: t('retry') }}>
        {({ data }) => (
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" data-testid="survey-card">
            {(
              [
                ['assigned', data.assigned],
                ['open', data.open],
                ['overdue', data.overdue],
                ['completed', data.completed],
                ['completionRate', data.completion_rate === null ? '—' : `${data.completion_rate} %`],
                ['averageScore', data.average_score ?? '—'],
                ['flagged', data.flagged],
                ['scheduled', data.scheduled],
              ] as const
            ).map(([key, value]) => (
              <Paper key={key} withBorder p="xs" radius="md">
                <Text size="xs" c="dimmed">
                  {t(`card.${key}`)}
                </Text>
                <Text fw={700} fz="lg" data-testid={`survey-card-${key}`}>
                  {value}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>
        )}
      </Loaded>
      <section aria-labelledby="survey-questions">
        <Group justify="space-between">
          <Title order={3} fz="h5" id="survey-questions">
            {t('detail.questions')}
          </Title>
          {canEdit && (
            <Button size="xs" variant="light" onClick={onEdit}>
              {t('detail.editQuestions')}
            </Button>
          )}
        </Group>
        <Stack gap={4} mt={4}>
          {survey.questions.map((q) => (
            <div key={q.id}>
              <Text size="sm">
                {q.position}. {q.text}{' '}
                <Badge size="xs" variant="light" style={{ color: 'var(--mantine-color-text)' }}>
                  {t(`kinds.${q.kind}`)}
                </Badge>
              </Text>
              {q.options.length > 0 && (
                <Text size="xs" c="dimmed">
                  {q.options.map((o) => `${o.label} (${o.score})`).join(' · ')}
                </Text>
              )}
            </div>
          ))}
        </Stack>
      </section>
      {canEdit && <LinkForm survey={survey} act={act} />}
      {canEdit && (
        <Select
          label={t('detail.folder')}
          data={[
            { value: '', label: t('folders.none') },
            ...folders.map((f) => ({ value: String(f.id), label: f.name })),
          ]}
          value={survey.folder_id === null ? '' : String(survey.folder_id)}
          allowDeselect={false}
          onChange={(v) => void act(() => surveyCalls.moveToFolder(survey.id, v ? Number(v) : null))}
        />
      )}
      <section aria-labelledby="survey-triggers">
        <Title order={3} fz="h5" id="survey-triggers">
          {t('detail.triggers')}
        </Title>
        <Text size="xs" c="dimmed">
          {t('detail.triggersHint')}
        </Text>
        <Table verticalSpacing={4} mt={4}>
          <Table.Tbody>
            {survey.triggers.map((tr) => (
              <TriggerRow
                key={tr.id}
                trigger={tr}
                label={
                  tr.kind === 'score' ? t('detail.scoreTrigger') : (questionText.get(tr.question_id!) ?? '')
                }
                disabled={!canSetTriggers}
                onValue={(value) => void act(() => surveyCalls.setTrigger(programId, survey.id, tr, value))}
                onToggle={(on) => void act(() => surveyCalls.toggleTrigger(programId, survey.id, tr, on))}
              />
            ))}
          </Table.Tbody>
        </Table>
      </section>
    </Stack>
  );
}

function LinkForm({ survey, act }: { survey: Survey; act: Act }) {
  const { t } = useTranslation('surveys');
  const [url, setUrl] = useState(survey.url ?? '');
  const [analyse, setAnalyse] = useState(survey.analyse_url ?? '');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void act(() => surveyCalls.updateLink(survey.id, url.trim() || null, analyse.trim() || null));
      }}
    >
      <Group align="flex-end" grow>
        <TextInput label={t('detail.url')} value={url} onChange={(e) => setUrl(e.currentTarget.value)} />
        <TextInput
          label={t('detail.analyseUrl')}
          value={analyse}
          onChange={(e) => setAnalyse(e.currentTarget.value)}
        />
        <Button type="submit" variant="default" style={{ flexGrow: 0 }}>
          {t('detail.saveLink')}
        </Button>
      </Group>
      {survey.url && (
        <Anchor href={survey.url} target="_blank" rel="noreferrer" size="sm">
          {t('detail.openLink')}
        </Anchor>
      )}
    </form>
  );
}

function TriggerRow({
  trigger,
  label,
  disabled,
  onValue,
  onToggle,
}: {
  trigger: SurveyTrigger;
  label: string;
  disabled: boolean;
  onValue: (value: number | null) => void;
  onToggle: (on: boolean) => void;
}) {
  const { t } = useTranslation('surveys');
  const [value, setValue] = useState<number | ''>(trigger.value ?? '');
  return (
    <Table.Tr data-testid="survey-trigger">
      <Table.Td>
        <Text size="sm">{label}</Text>
      </Table.Td>
      <Table.Td w={150}>
        <NumberInput
          size="xs"
          aria-label={t('detail.triggerValue', { label })}
          placeholder={t('detail.atOrAbove')}
          value={value}
          disabled={disabled}
          onChange={(v) => setValue(v === '' ? '' : Number(v))}
          onBlur={() => {
            const next = value === '' ? null : value;
            if (next !== trigger.value) onValue(next);
          }}
        />
      </Table.Td>
      <Table.Td w={70}>
        <Switch
          aria-label={t('detail.triggerOn', { label })}
          checked={trigger.is_active}
          disabled={disabled || trigger.value === null}
          onChange={(e) => onToggle(e.currentTarget.checked)}
        />
      </Table.Td>
    </Table.Tr>
  );
}
