import {
  CARE_ROLES,
  type Survey,
  type SurveyAssignment,
  type SurveyQuestion,
  type SurveyResponse,
} from '@caredeck/contracts';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Radio,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasAnyRole } from '../../../app/auth/roles';
import { firstFieldErrors, isApiError } from '../../../shared/api-client';
import { DateField } from '../../../shared/ui/DateField';
import { Loaded } from '../../../shared/ui/Loaded';
import { ConfirmModal } from '../../../shared/ui/NameModal';
import { toast } from '../../../shared/ui/toasts';
import { useCurrentUser } from '../../identity/api';
import { useActiveScope } from '../../tenancy/scope';
import {
  SURVEYS_KEY,
  surveyCalls,
  useAssignmentResponses,
  useAvailableSurveys,
  useEngagements,
  usePatientSurveys,
  useSurveys,
} from '../api';
import '../i18n';

type Dialog =
  | { kind: 'assign' }
  | { kind: 'fill'; assignment: SurveyAssignment }
  | { kind: 'answers'; assignment: SurveyAssignment }
  | { kind: 'unassign'; assignment: SurveyAssignment };

/**
 * A patient's Surveys tab: the assignments (open, scheduled, completed with score and flags), assign a
 * survey, fill one in with the patient (staff-administered), unassign after a confirmation, read answers
 * and what happened to each.
 */
export function PatientSurveysPanel({ programId, patientId }: { programId: number; patientId: number }) {
  const { t, i18n } = useTranslation('surveys');
  const assignments = usePatientSurveys(patientId);
  const user = useCurrentUser();
  const scope = useActiveScope();
  const canAct = Boolean(user && scope && hasAnyRole(user, CARE_ROLES, scope));
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const queryClient = useQueryClient();
  const reload = () => queryClient.invalidateQueries({ queryKey: SURVEYS_KEY });
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const texts = { loading: t('loading'), error: t('patient.loadError'), retry: t('retry') };

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} fz="h4">
          {t('patient.title')}
        </Title>
        {canAct && (
          <Button size="sm" onClick={() => setDialog({ kind: 'assign' })}>
            {t('patient.assign')}
          </Button>
        )}
      </Group>
      <Loaded query={assignments} texts={texts}>
        {({ data }) => {
          const rows = data as SurveyAssignment[];
          return rows.length === 0 ? (
            <Text c="dimmed">{t('patient.empty')}</Text>
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="xs" data-testid="patient-surveys">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('worklist.survey')}</Table.Th>
                    <Table.Th w={190}>{t('worklist.state')}</Table.Th>
                    <Table.Th w={150}>{t('worklist.date')}</Table.Th>
                    <Table.Th w={90}>{t('worklist.score')}</Table.Th>
                    <Table.Th w={220} />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((a) => (
                    <Table.Tr key={a.id} data-testid="patient-survey-row">
                      <Table.Td>
                        {a.survey.name}
                        {a.is_private && (
                          <Text size="xs" c="dimmed">
                            {t('assignment.private')}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4}>
                          <Badge variant="light" style={{ color: 'var(--mantine-color-text)' }}>
                            {t(`assignment.status.${a.status}`)}
                          </Badge>
                          {a.response_id !== null && (
                            <Badge variant="outline">{t('assignment.inProgress')}</Badge>
                          )}
                          {a.overdue && (
                            <Badge
                              color="orange"
                              variant="light"
                              style={{ color: 'var(--mantine-color-text)' }}
                            >
                              {t('assignment.overdue')}
                            </Badge>
                          )}
                          {a.flagged && (
                            <Badge color="red" variant="light" style={{ color: 'var(--mantine-color-text)' }}>
                              {t('assignment.flagged')}
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        {a.status === 'completed' && a.completed_at
                          ? date.format(new Date(a.completed_at))
                          : a.status === 'scheduled'
                            ? t('assignment.opensOn', { date: date.format(new Date(a.scheduled_at)) })
                            : t('assignment.dueOn', { date: date.format(new Date(a.due_at)) })}
                      </Table.Td>
                      <Table.Td>{a.score === null ? '—' : a.score}</Table.Td>
                      <Table.Td>
                        <Group gap={4} justify="flex-end">
                          {canAct && a.status === 'open' && (
                            <Button size="xs" onClick={() => setDialog({ kind: 'fill', assignment: a })}>
                              {t('patient.fill')}
                            </Button>
                          )}
                          <Button
                            size="xs"
                            variant="default"
                            onClick={() => setDialog({ kind: 'answers', assignment: a })}
                          >
                            {t('patient.details')}
                          </Button>
                          {canAct && (a.status === 'open' || a.status === 'scheduled') && (
                            <Button
                              size="xs"
                              variant="subtle"
                              color="danger"
                              onClick={() => setDialog({ kind: 'unassign', assignment: a })}
                            >
                              {t('patient.unassign')}
                            </Button>
                          )}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          );
        }}
      </Loaded>
      {dialog?.kind === 'assign' && (
        <AssignModal
          patientId={patientId}
          onClose={() => {
            setDialog(null);
            void reload();
          }}
        />
      )}
      {dialog?.kind === 'fill' && (
        <FillModal
          programId={programId}
          patientId={patientId}
          assignment={dialog.assignment}
          onClose={() => {
            setDialog(null);
            void reload();
          }}
        />
      )}
      {dialog?.kind === 'answers' && (
        <AnswersModal
          programId={programId}
          patientId={patientId}
          assignment={dialog.assignment}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'unassign' && (
        <ConfirmModal
          title={t('patient.unassignTitle', { name: dialog.assignment.survey.name })}
          body={t('patient.unassignBody')}
          confirm={t('patient.unassign')}
          onClose={() => {
            setDialog(null);
            void reload();
          }}
          onConfirm={() => surveyCalls.unassign(patientId, dialog.assignment.survey.id)}
        />
      )}
    </Stack>
  );
}

function AssignModal({ patientId, onClose }: { patientId: number; onClose: () => void }) {
  const { t } = useTranslation('surveys');
  const available = useAvailableSurveys(patientId, true);
  const [surveyId, setSurveyId] = useState<string | null>(null);
  const [opens, setOpens] = useState('');
  const [reassign, setReassign] = useState<number | ''>('');
  const [isPrivate, setPrivate] = useState(false);
  const [byStaff, setByStaff] = useState(true);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [busy, setBusy] = useState(false);
  const surveys = (available.data?.data ?? []) as Survey[];
  return (
    <Modal opened onClose={onClose} title={t('patient.assignTitle')}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          if (!surveyId) return setErrors({ survey: t('patient.chooseSurvey') });
          setBusy(true);
          setErrors({});
          try {
            const res = await surveyCalls.assign(patientId, Number(surveyId), {
              scheduled_at: opens ? new Date(`${opens}T09:00:00`).toISOString() : null,
              reassign_after_days: reassign === '' ? null : reassign,
              is_private: isPrivate,
              admin_assign: byStaff,
            });
            // 'Survey Assigned!' or 'Assessment Already Completed' (02 §8).
            if (res.data.status === 'completed') toast.info(res.message);
            else toast.success(res.message);
            onClose();
          } catch (error) {
            const fields = firstFieldErrors(error);
            if (fields) setErrors(fields);
            else if (isApiError(error) && error.status === 409) toast.error(error.message);
            else toast.error(t('backendError'));
          } finally {
            setBusy(false);
          }
        }}
      >
        <Stack gap="sm">
          <Select
            label={t('patient.survey')}
            data={surveys.map((s) => ({ value: String(s.id), label: s.name }))}
            value={surveyId}
            onChange={setSurveyId}
            searchable
            nothingFoundMessage={t('patient.noneAvailable')}
            error={errors.survey}
            data-autofocus
          />
          <DateField
            label={t('patient.opens')}
            value={opens}
            onChange={setOpens}
            error={errors.scheduled_at}
          />
          <NumberInput
            label={t('patient.reassign')}
            description={t('patient.reassignHint')}
            min={1}
            max={365}
            value={reassign}
            onChange={(v) => setReassign(v === '' ? '' : Number(v))}
            error={errors.reassign_after_days}
          />
          <Switch
            label={t('patient.byStaff')}
            checked={byStaff}
            onChange={(e) => setByStaff(e.currentTarget.checked)}
          />
          <Switch
            label={t('patient.private')}
            description={t('patient.privateHint')}
            checked={isPrivate}
            onChange={(e) => setPrivate(e.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('patient.assign')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

type AnswerValue = string | number | string[];

/** One question's input: options as radios or checkboxes, a number, or text. */
function QuestionInput({
  question,
  value,
  error,
  onChange,
}: {
  question: SurveyQuestion;
  value: AnswerValue | undefined;
  error?: string;
  onChange: (v: AnswerValue) => void;
}) {
  const label = `${question.position}. ${question.text}`;
  if (question.kind === 'single')
    return (
      <Radio.Group
        label={label}
        value={typeof value === 'string' ? value : ''}
        onChange={onChange}
        error={error}
        withAsterisk={question.required}
      >
        <Stack gap="xs" mt={4}>
          {question.options.map((o) => (
            <Radio key={o.value} value={o.value} label={o.label} size="md" />
          ))}
        </Stack>
      </Radio.Group>
    );
  if (question.kind === 'multiple')
    return (
      <Checkbox.Group
        label={label}
        value={Array.isArray(value) ? value : []}
        onChange={onChange}
        error={error}
        withAsterisk={question.required}
      >
        <Stack gap="xs" mt={4}>
          {question.options.map((o) => (
            <Checkbox key={o.value} value={o.value} label={o.label} size="md" />
          ))}
        </Stack>
      </Checkbox.Group>
    );
  if (question.kind === 'number')
    return (
      <NumberInput
        label={label}
        value={typeof value === 'number' ? value : ''}
        min={question.min ?? undefined}
        max={question.max ?? undefined}
        onChange={(v) => onChange(v === '' ? '' : Number(v))}
        error={error}
        withAsterisk={question.required}
      />
    );
  return (
    <Textarea
      label={label}
      value={typeof value === 'string' ? value : ''}
      onChange={(e) => onChange(e.currentTarget.value)}
      autosize
      minRows={2}
      error={error}
      withAsterisk={question.required}
    />
  );
}

/** Fill in a survey with the patient: save as in progress or complete (every required answer). */
function FillModal({
  programId,
  patientId,
  assignment,
  onClose,
}: {
  programId: number;
  patientId: number;
  assignment: SurveyAssignment;
  onClose: () => void;
}) {
  const { t } = useTranslation('surveys');
  const surveys = useSurveys(programId, null, '');
  const saved = useAssignmentResponses(patientId, assignment.response_id === null ? null : assignment.id);
  const survey = surveys.data?.data.find((s) => s.id === assignment.survey.id);
  const [answers, setAnswers] = useState<Record<number, AnswerValue> | null>(null);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [busy, setBusy] = useState(false);
  const initial =
    answers ??
    Object.fromEntries((saved.data?.data[0]?.answers ?? []).map((a) => [a.question_id, a.value] as const));
  const current = answers ?? initial;
  const texts = { loading: t('loading'), error: t('patient.loadError'), retry: t('retry') };

  const save = async (complete: boolean) => {
    if (!survey) return;
    setBusy(true);
    setErrors({});
    try {
      const res = await surveyCalls.respond(patientId, assignment.id, {
        complete,
        answers: Object.entries(current)
          .filter(([, v]) => v !== '' && !(Array.isArray(v) && v.length === 0))
          .map(([id, value]) => ({ question_id: Number(id), value })),
      });
      toast.success(res.message);
      if (complete && res.data.triggers.length > 0)
        toast.warning(t('fill.flagged', { count: res.data.triggers.length }));
      onClose();
    } catch (error) {
      const fields = firstFieldErrors(error);
      if (fields) {
        // Errors name the answer's index in what was sent, or the question (`answers.q{id}`).
        const sent = Object.keys(current).map(Number);
        const mapped: Record<string, string | undefined> = {};
        for (const [key, message] of Object.entries(fields)) {
          const q = /^answers\.q(\d+)$/.exec(key)?.[1];
          const i = /^answers\.(\d+)$/.exec(key)?.[1];
          if (q) mapped[q] = message;
          else if (i !== undefined) mapped[String(sent[Number(i)])] = message;
        }
        setErrors(mapped);
        toast.error(t('fill.fix'));
      } else toast.error(t('backendError'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={assignment.survey.name} size="lg">
      <Loaded query={surveys} texts={texts}>
        {() =>
          survey ? (
            <Stack gap="md">
              {survey.description && <Text c="dimmed">{survey.description}</Text>}
              {survey.questions.map((q) => (
                <QuestionInput
                  key={q.id}
                  question={q}
                  value={current[q.id]}
                  error={errors[String(q.id)]}
                  onChange={(v) => setAnswers({ ...current, [q.id]: v })}
                />
              ))}
              <Group justify="flex-end">
                <Button variant="default" onClick={onClose}>
                  {t('cancel')}
                </Button>
                <Button variant="light" loading={busy} onClick={() => void save(false)}>
                  {t('fill.saveProgress')}
                </Button>
                <Button loading={busy} onClick={() => void save(true)}>
                  {t('fill.complete')}
                </Button>
              </Group>
            </Stack>
          ) : (
            <Alert color="red">{t('patient.loadError')}</Alert>
          )
        }
      </Loaded>
    </Modal>
  );
}

/** An assignment's answers (when one may see them), the triggers they met, and what happened to it. */
function AnswersModal({
  programId,
  patientId,
  assignment,
  onClose,
}: {
  programId: number;
  patientId: number;
  assignment: SurveyAssignment;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('surveys');
  const responses = useAssignmentResponses(patientId, assignment.id);
  const engagements = useEngagements(programId, patientId, assignment.survey.id);
  const at = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const texts = { loading: t('loading'), error: t('patient.loadError'), retry: t('retry') };
  return (
    <Modal opened onClose={onClose} title={assignment.survey.name} size="lg">
      <Stack gap="md">
        <Loaded query={responses} texts={texts}>
          {({ data }) =>
            data.length === 0 ? (
              <Text c="dimmed">{t('answers.none')}</Text>
            ) : (
              <Stack gap="sm">
                {data.map((r: SurveyResponse) => (
                  <Stack key={r.id} gap={4}>
                    <Text fw={600} data-testid="survey-response-score">
                      {r.status === 'completed'
                        ? t('answers.score', { score: r.score, max: r.max_score, count: r.max_score })
                        : t('answers.inProgress', { count: r.answered })}
                    </Text>
                    {r.triggers.map((tr) => (
                      <Text key={tr.trigger_id} size="sm" c="red">
                        {tr.kind === 'score'
                          ? t('answers.scoreTrigger', { value: tr.value, threshold: tr.threshold })
                          : t('answers.questionTrigger', {
                              question: tr.question,
                              value: tr.value,
                              threshold: tr.threshold,
                            })}
                      </Text>
                    ))}
                    {r.answers ? (
                      <Table verticalSpacing={2}>
                        <Table.Tbody>
                          {r.answers.map((a) => (
                            <Table.Tr key={a.question_id}>
                              <Table.Td>{a.question}</Table.Td>
                              <Table.Td w={220}>{a.display}</Table.Td>
                            </Table.Tr>
                          ))}
                        </Table.Tbody>
                      </Table>
                    ) : (
                      <Text size="sm" c="dimmed">
                        {t('answers.private')}
                      </Text>
                    )}
                  </Stack>
                ))}
              </Stack>
            )
          }
        </Loaded>
        <section aria-labelledby="survey-engagements">
          <Title order={3} fz="h5" id="survey-engagements">
            {t('answers.history')}
          </Title>
          <Loaded query={engagements} texts={texts}>
            {({ data }) => (
              <Stack gap={2}>
                {data.map((e) => (
                  <Text key={e.id} size="sm">
                    {at.format(new Date(e.at))} · {t(`events.${e.kind}`)} ·{' '}
                    {e.by?.name ?? t('answers.system')}
                  </Text>
                ))}
              </Stack>
            )}
          </Loaded>
        </section>
      </Stack>
    </Modal>
  );
}
