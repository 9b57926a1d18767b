import type { StaffRole } from '@caredeck/contracts';
import { Anchor, Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { usePageTitle } from '../../../app/documentTitle';
import { Loaded } from '../../../shared/ui/Loaded';
import { MessageText } from '../../../shared/ui/messageText';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { usePatient } from '../../patient-record/api';
import { SmsPanel } from '../../sms/components/SmsPanel';
import { useActiveScope } from '../../tenancy/scope';
import {
  ESCALATIONS_KEY,
  type EscalationStep,
  escalationCalls,
  useEscalatedNotes,
  useLiveEscalations,
  usePatientAlerts,
} from '../api';
import '../../alerts/i18n';
import '../../staff/i18n';
import '../i18n';

/** The texts of a loading list on these pages. */
export function useLoadedTexts() {
  const { t } = useTranslation('escalations');
  return { loading: t('loading'), error: t('loadError'), retry: t('retry') };
}

/**
 * /patient/{patientId}/escalation-messages: the patient's escalated alerts (complete the escalation), the
 * escalated notes (inactivate), and the texts with the patient to act on them.
 */
export function PatientEscalationsPage() {
  const { t, i18n } = useTranslation('escalations');
  const { t: alertText } = useTranslation('alerts');
  const { t: staffText } = useTranslation('staff');
  const scope = useActiveScope();
  const programId = scope?.programId ?? 0;
  const patientId = Number(useParams().patientId);
  const queryClient = useQueryClient();
  const patient = usePatient(programId, patientId);
  const alerts = usePatientAlerts(programId, patientId);
  const notes = useEscalatedNotes(patientId);
  useLiveEscalations();
  const loaded = useLoadedTexts();
  usePageTitle(patient.data ? `${t('escalations')} · ${patient.data.name}` : '');
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const reload = () => void queryClient.invalidateQueries({ queryKey: ESCALATIONS_KEY });
  const run = async (step: EscalationStep, done: string) => {
    try {
      await step();
      toast.success(done);
    } catch (error) {
      toastErrors(error);
    } finally {
      reload();
    }
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Anchor component={Link} to={`/patient/${patientId}`} size="sm">
            <Group gap={4} component="span">
              <IconArrowLeft size={14} aria-hidden />
              {t('back')}
            </Group>
          </Anchor>
          <Title order={1} fz="h2">
            {t('escalations')}
            {patient.data ? ` · ${patient.data.name}` : ''}
          </Title>
        </div>
        <Button component={Link} to={`/patient/${patientId}/messages-history`} variant="default" size="xs">
          {t('history')}
        </Button>
      </Group>

      <Paper withBorder radius="md" p="md">
        <Group justify="space-between" mb="xs">
          <Title order={2} fz="h4">
            {t('patient.alerts')}
          </Title>
          {(alerts.data?.data ?? []).some((a) => a.status === 'escalated') && (
            <Button
              size="xs"
              color="teal.9"
              onClick={() =>
                void run(() => escalationCalls.complete(programId, [patientId]), t('patient.completed'))
              }
            >
              {t('patient.complete')}
            </Button>
          )}
        </Group>
        <Loaded query={alerts} texts={loaded}>
          {(res) => {
            const escalated = res.data.filter((a) => a.status === 'escalated');
            if (escalated.length === 0) return <Text c="dimmed">{t('patient.noAlerts')}</Text>;
            return (
              <Table verticalSpacing="xs" data-testid="escalated-alerts">
                <Table.Tbody>
                  {escalated.map((a) => (
                    <Table.Tr key={a.id}>
                      <Table.Td>
                        <Text size="sm" fw={600}>
                          {alertText(`types.${a.type}`)}
                        </Text>
                        <Text size="sm">{a.summary}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="xs" c="dimmed">
                          {t('patient.escalatedTo', {
                            role: a.escalated_to_role
                              ? staffText(`roles.${a.escalated_to_role as StaffRole}`)
                              : '–',
                            time: a.escalated_at ? time.format(new Date(a.escalated_at)) : '–',
                          })}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            );
          }}
        </Loaded>
      </Paper>

      <Paper withBorder radius="md" p="md">
        <Title order={2} fz="h4" mb="xs">
          {t('patient.notes')}
        </Title>
        <Loaded query={notes} texts={loaded}>
          {(res) =>
            res.data.length === 0 ? (
              <Text c="dimmed">{t('patient.noNotes')}</Text>
            ) : (
              <Stack gap="sm">
                {res.data.map((note) => (
                  <Group key={note.id} justify="space-between" align="flex-start" wrap="nowrap">
                    <div>
                      <Group gap={6}>
                        <Badge size="xs" color="red.9" variant="filled">
                          {alertText('status.escalated')}
                        </Badge>
                        <Text size="xs" c="dimmed">
                          {t('patient.by', {
                            name: note.escalation?.by?.name ?? t('someone'),
                            time: time.format(new Date(note.escalation?.at ?? note.created_at)),
                          })}
                        </Text>
                      </Group>
                      <MessageText>{note.body}</MessageText>
                    </div>
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      onClick={() =>
                        void run(() => escalationCalls.inactivateNote(note.id), t('patient.inactivate'))
                      }
                    >
                      {t('patient.inactivate')}
                    </Button>
                  </Group>
                ))}
              </Stack>
            )
          }
        </Loaded>
      </Paper>

      <Paper withBorder radius="md" p="md">
        <Title order={2} fz="h4" mb="xs">
          {t('patient.message')}
        </Title>
        {patient.data && (
          <SmsPanel
            programId={programId}
            patientId={patientId}
            fill={{ first_name: patient.data.first_name, last_name: patient.data.last_name }}
          />
        )}
      </Paper>
    </Stack>
  );
}
