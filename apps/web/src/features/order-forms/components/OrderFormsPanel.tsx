import type { OrderForm } from '@caredeck/contracts';
import { US_DATE_TIME_PATTERN } from '@caredeck/domain';
import {
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Pagination,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconDownload, IconPlus, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { dateOrNotProvided } from '../../../shared/ui/notProvided';
import { errorMessagesOf, toast } from '../../../shared/ui/toasts';
import { useCurrentUser } from '../../identity/api';
import { downloadOrderFormPdf, useOrderForms } from '../api';
import { NewOrderFormModal } from './NewOrderFormModal';
import { SendOrderFormModal } from './SendOrderFormModal';
import '../i18n';

const STATE_COLORS: Record<OrderForm['state'], string> = {
  created: 'gray',
  sent: 'success',
  resent: 'primary',
};
const DELIVERY_COLORS: Record<OrderForm['sends'][number]['delivery'], string> = {
  pending: 'gray',
  sent: 'success',
  failed: 'red',
};
const PAGE_PARAM = 'forms_page';

/**
 * The patient record's "Order forms" tab (02 §7; ADR 044): the patient's forms newest first with their state,
 * recipient and send history; download the PDF, send a created form, resend a sent one (after a confirmation);
 * "New order form" makes one from a template. The page is kept in the URL.
 */
export function OrderFormsPanel({ programId, patientId }: { programId: number; patientId: number }) {
  const { t } = useTranslation('orderForms');
  const [searchParams, setSearchParams] = useSearchParams();
  const page = Math.max(1, Number(searchParams.get(PAGE_PARAM)) || 1);
  const forms = useOrderForms(programId, patientId, page);
  const [creating, setCreating] = useState(false);
  const [sending, setSending] = useState<{ form: OrderForm; mode: 'send' | 'resend' } | null>(null);
  const setPage = (next: number) =>
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        params.set(PAGE_PARAM, String(next));
        return params;
      },
      { replace: true },
    );

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Title order={2} fz="h4">
            {t('title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('subtitle')}
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          {t('new')}
        </Button>
      </Group>
      {forms.isError && !forms.data ? (
        <Alert color="red" role="alert" title={t('loadError')}>
          <Button variant="default" size="xs" mt="xs" onClick={() => void forms.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : !forms.data ? (
        <Center py="lg">
          <Loader size="sm" aria-label={t('loading')} />
        </Center>
      ) : forms.data.data.length === 0 ? (
        <Text c="dimmed" size="sm" data-testid="order-forms-empty">
          {t('empty')}
        </Text>
      ) : (
        <Stack gap="sm" data-testid="order-forms">
          {forms.data.data.map((form) => (
            <FormCard
              key={form.id}
              form={form}
              programId={programId}
              onSend={(mode) => setSending({ form, mode })}
            />
          ))}
          {forms.data.last_page > 1 && (
            <Pagination
              total={forms.data.last_page}
              value={page}
              onChange={setPage}
              getControlProps={(control) => ({
                'aria-label': control === 'next' ? t('pages.next') : t('pages.previous'),
              })}
            />
          )}
        </Stack>
      )}
      {creating && (
        <NewOrderFormModal programId={programId} patientId={patientId} onClose={() => setCreating(false)} />
      )}
      {sending && (
        <SendOrderFormModal
          programId={programId}
          patientId={patientId}
          form={sending.form}
          mode={sending.mode}
          onClose={() => setSending(null)}
        />
      )}
    </Stack>
  );
}

function FormCard({
  form,
  programId,
  onSend,
}: {
  form: OrderForm;
  programId: number;
  onSend: (mode: 'send' | 'resend') => void;
}) {
  const { t } = useTranslation('orderForms');
  const zone = useCurrentUser()?.tz ?? null;
  const [downloading, setDownloading] = useState(false);
  const when = (at: string) => dateOrNotProvided(at, US_DATE_TIME_PATTERN, zone);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadOrderFormPdf(programId, form.patient_id, form.id);
    } catch (error) {
      toast.error(`${t('downloadFailed')} ${errorMessagesOf(error).join(' ')}`);
    } finally {
      setDownloading(false);
    }
  };
  const headingId = `order-form-${form.id}`;

  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      component="article"
      aria-labelledby={headingId}
      data-testid="order-form"
    >
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <div>
          <Group gap="xs">
            <Title order={3} fz="h6" id={headingId}>
              {form.template.name}
            </Title>
            <Badge color={STATE_COLORS[form.state]} variant="light" data-testid="order-form-state">
              {t(`states.${form.state}`)}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            {t('formNumber', { id: form.id })} · {t(`recipients.${form.template.recipient_kind}`)} ·{' '}
            {t('preparedBy', { name: form.created_by.name, date: when(form.created_at) })}
          </Text>
          <Text size="sm">
            {form.recipient
              ? form.recipient.name
                ? t('toNamed', { name: form.recipient.name, to: form.recipient.to })
                : t('to', { to: form.recipient.to })
              : t('notSent')}
          </Text>
        </div>
        <Group gap="xs">
          <Button
            variant="default"
            size="xs"
            leftSection={<IconDownload size={14} aria-hidden />}
            loading={downloading}
            onClick={() => void download()}
          >
            {t('download')}
          </Button>
          <Button
            size="xs"
            leftSection={<IconSend size={14} aria-hidden />}
            onClick={() => onSend(form.state === 'created' ? 'send' : 'resend')}
          >
            {form.state === 'created' ? t('send') : t('resend')}
          </Button>
        </Group>
      </Group>
      {form.sends.length > 0 && (
        <Table.ScrollContainer minWidth={640} mt="xs">
          <Table fz="sm" data-testid="order-form-sends">
            <Table.Caption>{t('history', { count: form.sends.length })}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('columns.when')}</Table.Th>
                <Table.Th>{t('columns.kind')}</Table.Th>
                <Table.Th>{t('columns.to')}</Table.Th>
                <Table.Th>{t('columns.by')}</Table.Th>
                <Table.Th>{t('columns.delivery')}</Table.Th>
                <Table.Th>{t('columns.opened')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {form.sends.map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td>{when(s.sent_at)}</Table.Td>
                  <Table.Td>{t(`kinds.${s.kind}`)}</Table.Td>
                  <Table.Td>{s.recipient_name ? `${s.recipient_name} · ${s.to}` : s.to}</Table.Td>
                  <Table.Td>{s.sent_by.name}</Table.Td>
                  <Table.Td>
                    <Badge color={DELIVERY_COLORS[s.delivery]} variant="light" size="sm">
                      {t(`delivery.${s.delivery}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {t('openedTimes', { count: s.downloads })}
                    <Text size="xs" c="dimmed">
                      {t('linkUntil', { date: when(s.link_expires_at) })}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
