import { PATIENT_STATUSES, type PatientRecord } from '@caredeck/contracts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Menu,
  Modal,
  Paper,
  Stack,
  Tabs,
  Text,
  Title,
  useMatches,
} from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconBell, IconChevronDown, IconPencil } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { usePageTitle } from '../../../app/documentTitle';
import { isApiError } from '../../../shared/api-client';
import { identityDate } from '../../../shared/ui/notProvided';
import { toast, toastErrors } from '../../../shared/ui/toasts';
import { AdherencePanel } from '../../adherence/components/AdherencePanel';
import { ReadingsPanel } from '../../adherence/components/ReadingsPanel';
import { BillingTimer } from '../../billing/components/BillingTimer';
import { TimePanel } from '../../billing/components/TimePanel';
import { PatientDevicesPanel } from '../../devices/components/PatientDevicesPanel';
import { NotesPanel } from '../../notes/components/NotesPanel';
import { NotificationsPanel } from '../../notifications/components/NotificationsPanel';
import { OrderFormsPanel } from '../../order-forms/components/OrderFormsPanel';
import { SmsPanel } from '../../sms/components/SmsPanel';
import { PatientSurveysPanel } from '../../surveys/components/PatientSurveysPanel';
import { useActiveScope } from '../../tenancy/scope';
import { logProfileViewed, usePatient, useSetActive } from '../api';
import { CaregiversPanel } from '../components/CaregiversPanel';
import { CohortsPanel } from '../components/CohortsPanel';
import { EditPatientModal } from '../components/EditPatientModal';
import { HistoryPanel } from '../components/HistoryPanel';
import { MedicationPanel } from '../components/MedicationPanel';
import { ProfilePanel } from '../components/ProfilePanel';
import { ProgramsPanel } from '../components/ProgramsPanel';
import { StatusChangeModal } from '../components/StatusChangeModal';
import '../i18n';

export const STATUS_COLORS: Record<PatientRecord['status'], string> = {
  active: 'success',
  inactive: 'gray',
  pending: 'warning',
  discharged: 'secondary',
};

const TABS = [
  'profile',
  'adherence',
  'readings',
  'devices',
  'medication',
  'notes',
  'surveys',
  'messages',
  'notifications',
  'programs',
  'caregivers',
  'cohorts',
  'time',
  'orderForms',
  'history',
] as const;
type Tab = (typeof TABS)[number];

/** /patient/{patientId}: the patient record of the active program, with its tabs (01 §2; 02 §7). */
export function PatientPage() {
  const { t } = useTranslation('patientRecord');
  const scope = useActiveScope();
  const id = Number(useParams().patientId);
  const programId = scope?.programId ?? 0;
  const record = usePatient(programId, id);
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: Tab = (TABS as readonly string[]).includes(searchParams.get('tab') ?? '')
    ? (searchParams.get('tab') as Tab)
    : 'profile';
  const logged = useRef<number | null>(null);
  const tabList = useRef<HTMLDivElement>(null);
  const oneRow = useMatches({ base: true, sm: false });
  usePageTitle(record.data?.name ?? '');

  // The chosen tab in view in the scrolling row (a link to ?tab=history on a phone shows History's tab).
  useEffect(() => {
    const list = tabList.current;
    const active = list?.querySelector<HTMLElement>(`[data-testid="tab-${tab}"]`);
    if (!list || !active || !record.data) return;
    const box = list.getBoundingClientRect();
    const at = active.getBoundingClientRect();
    if (at.left < box.left) list.scrollLeft += at.left - box.left - 16;
    else if (at.right > box.right) list.scrollLeft += at.right - box.right + 16;
  }, [tab, record.data]);

  useEffect(() => {
    if (!record.data || logged.current === record.data.id) return;
    logged.current = record.data.id;
    void logProfileViewed(record.data.id).catch(() => undefined);
  }, [record.data]);

  if (
    !Number.isInteger(id) ||
    id <= 0 ||
    (record.isError && isApiError(record.error) && record.error.status === 404)
  )
    return <Missing message={t('notFound')} />;
  if (record.isError) return <Missing message={t('loadError')} retry={() => void record.refetch()} />;
  if (!record.data)
    return (
      <Center py="xl">
        <Loader aria-label={t('loadError')} />
      </Center>
    );
  const patient = record.data;

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/patients" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          {t('back')}
        </Group>
      </Anchor>
      <PatientHeader patient={patient} programId={programId} />
      <Tabs
        value={tab}
        onChange={(value) =>
          setSearchParams(
            (current) => {
              const next = new URLSearchParams(current);
              next.set('tab', value ?? 'profile');
              return next;
            },
            { replace: true },
          )
        }
        keepMounted={false}
      >
        {/* On a phone, one row that scrolls sideways (the record starts near the top); wider, rows that wrap. */}
        <Tabs.List
          style={oneRow ? { flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' } : undefined}
          ref={tabList}
        >
          {TABS.map((key) => (
            <Tabs.Tab key={key} value={key} data-testid={`tab-${key}`} style={{ flexShrink: 0 }}>
              {t(`tabs.${key}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Paper withBorder radius="md" p="md" mt="md">
          <Tabs.Panel value="profile">
            <ProfilePanel patient={patient} />
          </Tabs.Panel>
          <Tabs.Panel value="adherence">
            <AdherencePanel patientId={patient.id} programId={programId} timeZone={patient.time_zone} />
          </Tabs.Panel>
          <Tabs.Panel value="readings">
            <ReadingsPanel patientId={patient.id} programId={programId} timeZone={patient.time_zone} />
          </Tabs.Panel>
          <Tabs.Panel value="devices">
            <PatientDevicesPanel patientId={patient.id} />
          </Tabs.Panel>
          <Tabs.Panel value="medication">
            <MedicationPanel patient={patient} programId={programId} />
          </Tabs.Panel>
          <Tabs.Panel value="programs">
            <ProgramsPanel patient={patient} />
          </Tabs.Panel>
          <Tabs.Panel value="messages">
            <SmsPanel
              programId={programId}
              patientId={patient.id}
              fill={{ first_name: patient.first_name, last_name: patient.last_name }}
            />
          </Tabs.Panel>
          <Tabs.Panel value="surveys">
            <PatientSurveysPanel programId={programId} patientId={patient.id} />
          </Tabs.Panel>
          <Tabs.Panel value="notes">
            <NotesPanel programId={programId} patientId={patient.id} me={scope?.userId ?? 0} />
          </Tabs.Panel>
          <Tabs.Panel value="notifications">
            <NotificationsPanel
              programId={programId}
              patient={patient}
              onSettingsChanged={() => void record.refetch()}
            />
          </Tabs.Panel>
          <Tabs.Panel value="caregivers">
            <CaregiversPanel patient={patient} programId={programId} />
          </Tabs.Panel>
          <Tabs.Panel value="cohorts">
            <CohortsPanel patient={patient} />
          </Tabs.Panel>
          <Tabs.Panel value="time">
            <TimePanel patient={patient} programId={programId} />
          </Tabs.Panel>
          <Tabs.Panel value="orderForms">
            <OrderFormsPanel programId={programId} patientId={patient.id} />
          </Tabs.Panel>
          <Tabs.Panel value="history">
            <HistoryPanel patient={patient} programId={programId} />
          </Tabs.Panel>
        </Paper>
      </Tabs>
    </Stack>
  );
}

export function Missing({ message, retry }: { message: string; retry?: () => void }) {
  const { t } = useTranslation('patientRecord');
  const common = useTranslation().t;
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/patients" size="sm">
        {t('back')}
      </Anchor>
      <Alert color="danger" icon={<IconAlertTriangle size={18} />} title={message} role="alert">
        {retry ? (
          <Button size="xs" variant="light" color="danger" onClick={retry}>
            {common('common.retry')}
          </Button>
        ) : null}
      </Alert>
    </Stack>
  );
}

function PatientHeader({ patient, programId }: { patient: PatientRecord; programId: number }) {
  const { t } = useTranslation('patientRecord');
  const common = useTranslation().t;
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const setActive = useSetActive(patient.id, programId);
  const [newStatus, setNewStatus] = useState<PatientRecord['status'] | null>(null);
  // Compact actions on a phone, so the record's tabs and content start higher.
  const size = useMatches({ base: 'xs', sm: 'sm' });

  const toggleActive = () =>
    setActive.mutate(!patient.active, {
      onSuccess: () => {
        setConfirming(false);
        toast.success(patient.active ? t('toasts.inactivated') : t('toasts.activated'));
      },
      onError: (error) => toastErrors(error),
    });

  return (
    <Group justify="space-between" align="flex-start" wrap="wrap">
      <Stack gap={4}>
        <Group gap="sm">
          <Title order={1} fz="h2" data-testid="patient-name">
            {patient.name}
          </Title>
          <Badge variant="light" color={STATUS_COLORS[patient.status]} data-testid="patient-status">
            {common(`patients.status.${patient.status}`)}
          </Badge>
          {patient.active ? null : (
            <Badge variant="outline" color="gray">
              {t('inactive')}
            </Badge>
          )}
        </Group>
        <Text c="dimmed" size="sm">
          {[
            identityDate(patient.dob),
            patient.age === null ? null : t('age', { count: patient.age }),
            common(`patients.sex.${patient.sex}`),
            // The MRN as recorded, as the patients list shows it (a label before it read "MRN MRN-…").
            patient.mrn,
          ]
            .filter(Boolean)
            .join(' · ')}
        </Text>
      </Stack>
      <Stack gap="xs" align="flex-end">
        <Group gap="xs">
          <Button
            size={size}
            variant="default"
            leftSection={<IconPencil size={16} aria-hidden />}
            onClick={() => setEditing(true)}
          >
            {t('actions.edit')}
          </Button>
          <Menu position="bottom-end">
            <Menu.Target>
              <Button size={size} variant="default" rightSection={<IconChevronDown size={14} aria-hidden />}>
                {t('actions.changeStatus')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {PATIENT_STATUSES.filter((s) => s !== patient.status).map((status) => (
                <Menu.Item key={status} onClick={() => setNewStatus(status)}>
                  {common(`patients.status.${status}`)}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
          <Button
            size={size}
            variant="default"
            component={Link}
            to={`/patient/${patient.id}/escalation-messages`}
            leftSection={<IconAlertTriangle size={16} aria-hidden />}
          >
            {t('actions.escalations')}
          </Button>
          <Button
            size={size}
            variant="default"
            component={Link}
            to={`/patient/${patient.id}/settings`}
            leftSection={<IconBell size={16} aria-hidden />}
          >
            {t('actions.settings')}
          </Button>
          <Button
            size={size}
            variant={patient.active ? 'light' : 'filled'}
            color={patient.active ? 'danger' : 'success'}
            onClick={() => setConfirming(true)}
          >
            {patient.active ? t('actions.inactivate') : t('actions.activate')}
          </Button>
        </Group>
        <BillingTimer patient={patient} programId={programId} />
      </Stack>
      <EditPatientModal patient={patient} opened={editing} onClose={() => setEditing(false)} />
      <StatusChangeModal patient={patient} status={newStatus} onClose={() => setNewStatus(null)} />
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t(patient.active ? 'confirm.inactivateTitle' : 'confirm.activateTitle', {
          name: patient.name,
        })}
      >
        <Stack>
          <Text size="sm">{t(patient.active ? 'confirm.inactivateBody' : 'confirm.activateBody')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('actions.cancel')}
            </Button>
            <Button
              color={patient.active ? 'danger' : 'success'}
              loading={setActive.isPending}
              onClick={toggleActive}
              data-testid="confirm-active"
            >
              {patient.active ? t('actions.inactivate') : t('actions.activate')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}
