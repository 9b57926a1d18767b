import { type PatientReport, patientRecordContract } from '@caredeck/contracts';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconDownload, IconFileSpreadsheet, IconFileTypePdf } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../../shared/api-client';
import { DateField } from '../../../shared/ui/DateField';
import type { SaveCall } from '../../../shared/ui/saveCall';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { useActiveScope } from '../../tenancy/scope';
import {
  downloadPatientList,
  downloadPatientReport,
  useCsvGeneration,
  usePatientReportMutations,
  usePatientReports,
} from '../api';
import { RUN_COLORS } from '../components/RunStatus';
import '../i18n';

function usePrograms(programId: number) {
  return useQuery({
    queryKey: ['reports', programId, 'all-patients'],
    queryFn: ({ signal }) =>
      api.call(patientRecordContract.allPatients, { params: { programId: String(programId) } }, { signal }),
    enabled: programId > 0,
    staleTime: 60_000,
  });
}

/** The generated patient reports (PDFs and CSVs): state, size, who asked, and the download. */
function ReportList({ programId, reports }: { programId: number; reports: PatientReport[] }) {
  const { t, i18n } = useTranslation('reports');
  const date = new Intl.DateTimeFormat(i18n.language === 'en' ? 'en-US' : i18n.language, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  if (reports.length === 0) return <Text c="dimmed">{t('patientReports.none')}</Text>;
  const download = async (r: PatientReport) => {
    try {
      toast.success(t('downloaded', { file: await downloadPatientReport(programId, r.id) }));
    } catch (error) {
      toastErrors(error, { title: t('downloadFailed') });
    }
  };
  return (
    <Table.ScrollContainer minWidth={620}>
      <Table data-testid="patient-reports">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('patientReports.kind')}</Table.Th>
            <Table.Th>{t('columns.period')}</Table.Th>
            <Table.Th>{t('columns.lastRun')}</Table.Th>
            <Table.Th>{t('columns.requested')}</Table.Th>
            <Table.Th>
              <span className="sr-only">{t('columns.actions')}</span>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {reports.map((r) => (
            <Table.Tr key={r.id} data-testid="patient-report-row">
              <Table.Td>{t(`patientReports.kinds.${r.kind}`)}</Table.Td>
              <Table.Td>
                {r.period_start} – {r.period_end}
              </Table.Td>
              <Table.Td>
                <Badge variant="light" color={RUN_COLORS[r.status]}>
                  {t(`runStatus.${r.status}`)}
                </Badge>
                {r.error && (
                  <Text size="xs" c="red">
                    {r.error}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                {r.user.name}
                <Text size="xs" c="dimmed">
                  {date.format(new Date(r.created_at))}
                </Text>
              </Table.Td>
              <Table.Td>
                <Tooltip label={t('download')}>
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('downloadNamed', {
                      name: r.file_name ?? t(`patientReports.kinds.${r.kind}`),
                    })}
                    disabled={r.status !== 'done'}
                    onClick={() => void download(r)}
                  >
                    <IconDownload size={18} aria-hidden />
                  </ActionIcon>
                </Tooltip>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * /patients/reports (02 §2): PDF reports of one patient or of the program's patients, and the patients CSV made
 * in the background (cancellable while it runs). The period defaults to the last 30 days.
 */
export function PatientReportsPage() {
  const { t, i18n } = useTranslation('reports');
  const scope = useActiveScope();
  const programId = scope?.programId ?? 0;
  const [params, setParams] = useSearchParams();
  const patientId = Number(params.get('patient')) || null;
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const patients = usePrograms(programId);
  const programReports = usePatientReports(programId, null);
  const patientReports = usePatientReports(programId, patientId, patientId !== null);
  const csv = useCsvGeneration(programId);
  const m = usePatientReportMutations(programId);
  const period = start && end ? { start, end } : {};
  const csvRun = csv.data?.report ?? null;
  const csvBusy = csvRun?.status === 'queued' || csvRun?.status === 'running';

  const run = async (call: SaveCall) => {
    try {
      toast.success((await call()).message);
    } catch (error) {
      toastErrors(error);
    }
  };

  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz="h2">
          {i18n.t('nav.patientReports')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('patientReports.subtitle')}
        </Text>
      </div>
      <Paper withBorder p="md" radius="md">
        <Group align="flex-end" wrap="wrap">
          <DateField label={t('form.start')} value={start} max={end || undefined} onChange={setStart} />
          <DateField label={t('form.end')} value={end} min={start || undefined} onChange={setEnd} />
          <Text size="sm" c="dimmed" mb={8}>
            {start && end ? t('patientReports.periodChosen') : t('patientReports.periodDefault')}
          </Text>
        </Group>
      </Paper>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Paper withBorder p="md" radius="md">
          <Stack>
            <Title order={2} fz="h4">
              {t('patientReports.programTitle')}
            </Title>
            <Group>
              <Button
                leftSection={<IconFileTypePdf size={16} aria-hidden />}
                onClick={() => void run(() => m.generate.mutateAsync({ patientId: null, ...period }))}
                loading={m.generate.isPending && m.generate.variables?.patientId === null}
              >
                {t('patientReports.programPdf')}
              </Button>
              <Button
                variant="default"
                leftSection={<IconFileSpreadsheet size={16} aria-hidden />}
                onClick={() =>
                  void downloadPatientList(programId)
                    .then((file) => toast.success(t('downloaded', { file })))
                    .catch((error: unknown) => toastErrors(error, { title: t('downloadFailed') }))
                }
              >
                {t('patientReports.list')}
              </Button>
            </Group>
            <Paper withBorder p="sm" radius="sm" bg="var(--mantine-color-body)">
              <Group justify="space-between" wrap="wrap">
                <div>
                  <Text fw={500}>{t('patientReports.csvTitle')}</Text>
                  <Text size="sm" c="dimmed" data-testid="csv-state">
                    {csvRun
                      ? t(`patientReports.csvState.${csvRun.status}`, { count: csvRun.rows ?? 0 })
                      : t('patientReports.csvNone')}
                  </Text>
                </div>
                <Group gap="xs">
                  {csvBusy ? (
                    <>
                      <Loader size="sm" aria-label={t('patientReports.csvState.running')} />
                      <Button
                        variant="default"
                        color="red"
                        onClick={() => void run(() => m.cancelCsv.mutateAsync(csvRun!.id))}
                      >
                        {t('patientReports.cancelCsv')}
                      </Button>
                    </>
                  ) : (
                    <Button variant="light" onClick={() => void run(() => m.startCsv.mutateAsync(period))}>
                      {t('patientReports.startCsv')}
                    </Button>
                  )}
                  {csvRun?.status === 'done' && (
                    <Button
                      variant="subtle"
                      leftSection={<IconDownload size={16} aria-hidden />}
                      onClick={() =>
                        void downloadPatientReport(programId, csvRun.id)
                          .then((file) => toast.success(t('downloaded', { file })))
                          .catch((error: unknown) => toastErrors(error, { title: t('downloadFailed') }))
                      }
                    >
                      {t('download')}
                    </Button>
                  )}
                </Group>
              </Group>
            </Paper>
            {programReports.isError ? (
              <Alert color="red" role="alert">
                {t('loadError')}
              </Alert>
            ) : !programReports.data ? (
              <Loader aria-label={t('loading')} />
            ) : (
              <ReportList programId={programId} reports={programReports.data.data} />
            )}
          </Stack>
        </Paper>
        <Paper withBorder p="md" radius="md">
          <Stack>
            <Title order={2} fz="h4">
              {t('patientReports.patientTitle')}
            </Title>
            <Group align="flex-end" wrap="wrap">
              <Select
                label={t('patientReports.patient')}
                placeholder={t('patientReports.patientHint')}
                data={(patients.data?.data ?? []).map((p) => ({
                  value: String(p.id),
                  label: `${p.last_name}, ${p.first_name}${p.mrn ? ` (${p.mrn})` : ''}`,
                }))}
                value={patientId ? String(patientId) : null}
                onChange={(value) =>
                  setParams((current) => {
                    const next = new URLSearchParams(current);
                    if (value) next.set('patient', value);
                    else next.delete('patient');
                    return next;
                  })
                }
                searchable
                clearable
                limit={50}
                w={320}
                nothingFoundMessage={t('patientReports.noMatch')}
              />
              <Button
                leftSection={<IconFileTypePdf size={16} aria-hidden />}
                disabled={patientId === null}
                onClick={() => void run(() => m.generate.mutateAsync({ patientId, ...period }))}
                loading={m.generate.isPending && m.generate.variables?.patientId === patientId}
              >
                {t('patientReports.patientPdf')}
              </Button>
            </Group>
            {patientId === null ? (
              <Text c="dimmed">{t('patientReports.choosePatient')}</Text>
            ) : patientReports.isError ? (
              <Alert color="red" role="alert">
                {t('loadError')}
              </Alert>
            ) : !patientReports.data ? (
              <Loader aria-label={t('loading')} />
            ) : (
              <ReportList programId={programId} reports={patientReports.data.data} />
            )}
          </Stack>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
