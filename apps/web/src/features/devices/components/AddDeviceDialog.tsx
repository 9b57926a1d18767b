import { DEVICE_SERIAL_MAX, DEVICE_SERIAL_PATTERN, type DeviceRegistered } from '@caredeck/contracts';
import { Alert, Button, Group, Modal, Radio, Select, Stack, Switch, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firstFieldErrors, isApiError } from '../../../shared/api-client';
import { type Registration, useIntegrations, useRegisterDevice } from '../api';
import '../i18n';
import { DeviceSecretOnce } from './DeviceSecretOnce';

const KINDS = ['dispenser', 'vendor', 'inhaler'] as const;
type Kind = (typeof KINDS)[number];
type Field = 'serial' | 'dispenserType' | 'vendor' | 'deviceId' | 'verified';

/** The body fields of the three registration calls, as the dialog names them. */
const FIELD_OF: Record<string, Field> = {
  serial: 'serial',
  dispenser_type: 'dispenserType',
  device_id: 'deviceId',
  vendor: 'vendor',
  verified: 'verified',
};

/**
 * Registers a device for the patient (02 §7 "Dispensers, devices and measurements"): a Medesto dispenser
 * by serial (POST devices/medesto), a vendor's device by the vendor's id (POST vendors/{v}/provision), or a
 * smart inhaler (POST inhalers). The answer's MQTT secret is shown once, with where the device signs in; the
 * dialog then closes only when the user says the secret is stored (docs/devices.md).
 */
export function AddDeviceDialog({
  programId,
  patientId,
  onClose,
}: {
  programId: number;
  patientId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation('devices');
  const [result, setResult] = useState<DeviceRegistered | null>(null);
  return (
    <Modal
      opened
      onClose={result ? () => undefined : onClose}
      closeOnClickOutside={!result}
      closeOnEscape={!result}
      withCloseButton={!result}
      title={result ? t('register.done.title') : t('register.title')}
      size="lg"
    >
      {result ? (
        <DeviceSecretOnce result={result} onStored={onClose} />
      ) : (
        <RegisterForm programId={programId} patientId={patientId} onCancel={onClose} onDone={setResult} />
      )}
    </Modal>
  );
}

function RegisterForm({
  programId,
  patientId,
  onCancel,
  onDone,
}: {
  programId: number;
  patientId: number;
  onCancel: () => void;
  onDone: (result: DeviceRegistered) => void;
}) {
  const { t } = useTranslation('devices');
  const register = useRegisterDevice(programId, patientId);
  const [kind, setKind] = useState<Kind>('dispenser');
  const integrations = useIntegrations(kind === 'vendor');
  const [serial, setSerial] = useState('');
  const [dispenserType, setDispenserType] = useState<'1' | '2'>('1');
  const [vendor, setVendor] = useState<string | null>(null);
  const [deviceId, setDeviceId] = useState('');
  const [verified, setVerified] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);

  const checkId = (value: string, pattern: boolean): string | undefined => {
    if (value === '') return t('register.required');
    if (value.length > DEVICE_SERIAL_MAX) return t('register.tooLong', { max: DEVICE_SERIAL_MAX });
    if (pattern && !DEVICE_SERIAL_PATTERN.test(value)) return t('register.serialPattern');
    return undefined;
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const found: Partial<Record<Field, string>> = {};
    let registration: Registration;
    if (kind === 'vendor') {
      const id = deviceId.trim();
      found.deviceId = checkId(id, false);
      if (!vendor) found.vendor = t('register.required');
      registration = { kind: 'vendor', vendor: vendor ?? '', deviceId: id };
    } else {
      const s = serial.trim();
      found.serial = checkId(s, true);
      registration =
        kind === 'dispenser'
          ? { kind: 'dispenser', serial: s, dispenserType: Number(dispenserType) as 1 | 2 }
          : { kind: 'inhaler', serial: s, verified };
    }
    const shown = Object.fromEntries(Object.entries(found).filter(([, m]) => m)) as typeof found;
    setErrors(shown);
    if (Object.keys(shown).length > 0) return;
    register.mutate(registration, {
      onSuccess: onDone,
      onError: (error) => {
        const fields = firstFieldErrors(error);
        if (fields) {
          const mapped: Partial<Record<Field, string>> = {};
          const other: string[] = [];
          for (const [key, message] of Object.entries(fields)) {
            const field = FIELD_OF[key];
            if (field) mapped[field] = message;
            else other.push(message);
          }
          setErrors(mapped);
          if (other.length > 0) setProblem(other.join(' '));
        } else if (isApiError(error, 409)) setProblem(t('register.taken'));
        else if (isApiError(error, 400) && kind === 'vendor') setErrors({ deviceId: error.message });
        else setProblem(isApiError(error) && error.status < 500 ? error.message : t('register.failed'));
      },
    });
  };

  const vendors = (integrations.data?.data ?? []).map((i) => ({
    value: i.vendor,
    label: `${i.name} (${i.kinds.map((k) => t(`kinds.${k}`)).join(', ')})`,
  }));

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Radio.Group
          label={t('register.kind')}
          description={t(`register.kindHint.${kind}`)}
          value={kind}
          onChange={(value) => {
            setKind(value as Kind);
            setErrors({});
            setProblem(null);
          }}
        >
          <Group gap="md" mt={6}>
            {KINDS.map((k) => (
              <Radio key={k} value={k} label={t(`register.kinds.${k}`)} />
            ))}
          </Group>
        </Radio.Group>
        {kind === 'dispenser' && (
          <Radio.Group
            label={t('register.dispenserType')}
            value={dispenserType}
            onChange={(value) => setDispenserType(value as '1' | '2')}
            error={errors.dispenserType}
          >
            <Group gap="md" mt={6}>
              <Radio value="1" label={t('register.type1')} />
              <Radio value="2" label={t('register.type2')} />
            </Group>
          </Radio.Group>
        )}
        {kind === 'vendor' ? (
          <>
            {integrations.isError && <Alert color="red">{t('register.vendorsError')}</Alert>}
            <Select
              label={t('register.vendor')}
              placeholder={integrations.isPending ? t('register.vendorsLoading') : undefined}
              data={vendors}
              value={vendor}
              onChange={setVendor}
              error={errors.vendor}
              required
              allowDeselect={false}
            />
            <TextInput
              label={t('register.deviceId')}
              description={t('register.deviceIdHint')}
              value={deviceId}
              onChange={(e) => setDeviceId(e.currentTarget.value)}
              error={errors.deviceId}
              required
              autoComplete="off"
            />
          </>
        ) : (
          <TextInput
            label={t('register.serial')}
            description={t('register.serialHint')}
            value={serial}
            onChange={(e) => setSerial(e.currentTarget.value)}
            error={errors.serial}
            required
            autoComplete="off"
            data-autofocus
          />
        )}
        {kind === 'inhaler' && (
          <Switch
            label={t('register.verified')}
            checked={verified}
            onChange={(e) => setVerified(e.currentTarget.checked)}
            error={errors.verified}
          />
        )}
        {problem && (
          <Alert color="red" role="alert" data-testid="register-problem">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end" mt="xs">
          <Button variant="default" onClick={onCancel}>
            {t('register.cancel')}
          </Button>
          <Button type="submit" loading={register.isPending}>
            {t('register.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
