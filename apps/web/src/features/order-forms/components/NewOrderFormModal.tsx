import type { PatientOrderFormTemplate } from '@caredeck/contracts';
import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api-client';
import { DateField } from '../../../shared/ui/DateField';
import { errorMessagesOf, toast } from '../../../shared/ui/toasts';
import { useCreateOrderForm, useOrderFormTemplates } from '../api';

type Field = PatientOrderFormTemplate['fields'][number];

/** The fields staff fill: the record's fields it does not know, and the template's own ones (lists are record-only). */
const toFill = (template: PatientOrderFormTemplate) =>
  template.fields.filter((f) => f.value === null && f.type !== 'list');

/**
 * "New order form": pick a template, see what the record supplies, fill what is missing (checked here for
 * required, bounds and pattern; the server's messages shown under each field), generate the PDF now (default)
 * → the server's 'Order Form Generated'. Any other failure is a toast with the server's message (02 §8).
 */
export function NewOrderFormModal({
  programId,
  patientId,
  onClose,
}: {
  programId: number;
  patientId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation('orderForms');
  const templates = useOrderFormTemplates(programId, patientId, true);
  const create = useCreateOrderForm(programId, patientId);
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [generatePdf, setGeneratePdf] = useState(true);
  const template = templates.data?.data.find((x) => String(x.id) === templateId) ?? null;

  const check = (f: Field, raw: string): string | null => {
    const value = raw.trim();
    if (value === '') return f.required ? t('create.required') : null;
    if (f.type === 'number') {
      const n = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
      if (Number.isNaN(n) || (f.min !== undefined && n < f.min) || (f.max !== undefined && n > f.max))
        return t('create.badNumber', { min: f.min ?? 0, max: f.max ?? 999_999 });
    }
    if (f.pattern && !new RegExp(f.pattern).test(value)) return f.pattern_message ?? t('create.required');
    return null;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!template) {
      setErrors({ template: t('create.required') });
      return;
    }
    const local: Record<string, string> = {};
    for (const f of toFill(template)) {
      const problem = check(f, values[f.key] ?? '');
      if (problem) local[f.key] = problem;
    }
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    const fields = Object.fromEntries(
      toFill(template)
        .map((f) => [f.key, (values[f.key] ?? '').trim()] as const)
        .filter(([, v]) => v !== ''),
    );
    try {
      const result = await create.mutateAsync({
        orderForm_id: template.id,
        user_id: patientId,
        generatePdf,
        fields,
      });
      toast.success(result.message);
      onClose();
    } catch (error) {
      const fieldErrors = isApiError(error, 422) ? error.fieldErrors : {};
      const mine: Record<string, string> = {};
      const others: string[] = [];
      for (const [key, list] of Object.entries(fieldErrors)) {
        const message = list[0] ?? '';
        if (key.startsWith('fields.')) mine[key.slice('fields.'.length)] = message;
        else if (key === 'orderForm_id') mine.template = message;
        else others.push(message);
      }
      setErrors(mine);
      if (Object.keys(mine).length === 0 || others.length > 0)
        toast.error(others.length > 0 ? others.join(' ') : errorMessagesOf(error).join(' '));
    }
  };

  const input = (f: Field) => {
    const common = {
      label: f.label,
      description: f.hint,
      withAsterisk: f.required,
      error: errors[f.key],
      value: values[f.key] ?? '',
      'data-field': f.key,
    };
    const set = (v: string) => {
      setValues((current) => ({ ...current, [f.key]: v }));
      setErrors(({ [f.key]: _gone, ...rest }) => rest);
    };
    if (f.type === 'select')
      return (
        <Select
          key={f.key}
          {...common}
          value={values[f.key] ?? null}
          placeholder={t('create.choose')}
          data={f.options ?? []}
          onChange={(v) => set(v ?? '')}
        />
      );
    if (f.type === 'textarea')
      return (
        <Textarea key={f.key} {...common} autosize minRows={2} onChange={(e) => set(e.currentTarget.value)} />
      );
    if (f.type === 'date')
      return (
        <DateField
          key={f.key}
          label={common.label}
          description={common.description}
          withAsterisk={common.withAsterisk}
          error={common.error}
          data-field={f.key}
          value={common.value}
          onChange={set}
        />
      );
    return (
      <TextInput
        key={f.key}
        {...common}
        type="text"
        inputMode={f.type === 'number' ? 'numeric' : undefined}
        onChange={(e) => set(e.currentTarget.value)}
      />
    );
  };

  return (
    <Modal opened onClose={onClose} title={t('create.title')} size="lg">
      {templates.isError ? (
        <Alert color="red" role="alert" title={t('create.templatesError')}>
          <Button variant="default" size="xs" mt="xs" onClick={() => void templates.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : !templates.data ? (
        <Center py="lg">
          <Loader size="sm" aria-label={t('create.templatesLoading')} />
        </Center>
      ) : templates.data.data.length === 0 ? (
        <Text c="dimmed">{t('create.noTemplates')}</Text>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate>
          <Stack gap="md">
            <Select
              label={t('create.template')}
              placeholder={t('create.choose')}
              withAsterisk
              data={templates.data.data.map((x) => ({ value: String(x.id), label: x.name }))}
              value={templateId}
              onChange={(v) => {
                setTemplateId(v);
                setErrors({});
              }}
              error={errors.template}
              data-autofocus
            />
            {template && (
              <>
                <Text size="sm" c="dimmed">
                  {template.description}{' '}
                  {t('create.goesTo', { kind: t(`recipients.${template.recipient_kind}`) })}
                </Text>
                <div>
                  <Title order={3} fz="h6" mb={4}>
                    {t('create.fromRecord')}
                  </Title>
                  <Table fz="sm" data-testid="order-form-prefill">
                    <Table.Tbody>
                      {template.fields
                        .filter((f) => f.source === 'patient' && (f.value !== null || f.type === 'list'))
                        .map((f) => (
                          <Table.Tr key={f.key}>
                            <Table.Th w="35%" scope="row">
                              {f.label}
                            </Table.Th>
                            <Table.Td style={{ whiteSpace: 'pre-line' }}>
                              {f.value ?? t('create.none')}
                            </Table.Td>
                          </Table.Tr>
                        ))}
                    </Table.Tbody>
                  </Table>
                </div>
                <div>
                  <Title order={3} fz="h6" mb={4}>
                    {t('create.toFill')}
                  </Title>
                  <Stack gap="sm">{toFill(template).map(input)}</Stack>
                </div>
                <Switch
                  label={t('create.generatePdf')}
                  checked={generatePdf}
                  onChange={(e) => setGeneratePdf(e.currentTarget.checked)}
                />
              </>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t('cancel')}
              </Button>
              <Button type="submit" loading={create.isPending} disabled={!template}>
                {t('create.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
