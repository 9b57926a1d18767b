import type { OrderForm } from '@caredeck/contracts';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firstFieldErrors } from '../../../shared/api-client';
import { errorMessagesOf, toast } from '../../../shared/ui/toasts';
import { useResendOrderForm, useSendOrderForm } from '../api';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Send a created form (the recipient's e-mail and name), or resend a sent one: a confirmation naming where it
 * goes, with the address to change if it should go elsewhere. The e-mail carries no patient information, only a
 * link to the PDF valid for 7 days (ADR 044).
 */
export function SendOrderFormModal({
  programId,
  patientId,
  form,
  mode,
  onClose,
}: {
  programId: number;
  patientId: number;
  form: OrderForm;
  mode: 'send' | 'resend';
  onClose: () => void;
}) {
  const { t } = useTranslation('orderForms');
  const send = useSendOrderForm(programId, patientId);
  const resend = useResendOrderForm(programId, patientId);
  const [email, setEmail] = useState(form.recipient?.to ?? '');
  const [name, setName] = useState(form.recipient?.name ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const busy = send.isPending || resend.isPending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!EMAIL.test(email.trim())) {
      setErrors({ email: t('dialog.invalidEmail') });
      return;
    }
    setErrors({});
    const recipient_name = name.trim() === '' ? null : name.trim();
    try {
      const result =
        mode === 'send'
          ? await send.mutateAsync({ order_form_id: form.id, email: email.trim(), recipient_name })
          : await resend.mutateAsync({
              id: form.id,
              body:
                email.trim() === form.recipient?.to && recipient_name === form.recipient?.name
                  ? {}
                  : { email: email.trim(), recipient_name },
            });
      toast.success(result.message);
      onClose();
    } catch (error) {
      const fields = firstFieldErrors(error);
      if (fields && (fields.email || fields.recipient_name)) setErrors(fields);
      else toast.error(errorMessagesOf(error).join(' '));
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={
        mode === 'send'
          ? t('dialog.sendTitle', { name: form.template.name })
          : t('dialog.resendTitle', { name: form.template.name })
      }
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            {mode === 'resend' && form.recipient
              ? t('dialog.resendExplain', { to: form.recipient.to })
              : t('dialog.explain', { kind: t(`recipients.${form.template.recipient_kind}`) })}
          </Text>
          <TextInput
            label={t('dialog.email')}
            type="email"
            withAsterisk
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errors.email}
            data-autofocus
          />
          <TextInput
            label={t('dialog.recipientName')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.recipient_name}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {mode === 'send' ? t('send') : t('resend')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
