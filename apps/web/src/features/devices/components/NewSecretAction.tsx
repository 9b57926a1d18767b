import type { Device, DeviceSecretReplaced } from '@caredeck/contracts';
import { Alert, Button, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../shared/ui/NameModal';
import { useReplaceSecret } from '../api';
import '../i18n';
import { DeviceSecretOnce } from './DeviceSecretOnce';

/**
 * "New secret" for a device whose secret is lost or leaked (ADR 051): after a confirmation the old secret
 * stops working and the device is disconnected; the new secret is shown once, in a dialog that closes only
 * when the user says it is stored. On the patient's Devices tab (staff with a care role) and in /controller.
 */
export function NewSecretAction({
  device,
  realm = 'staff',
}: {
  device: Pick<Device, 'id' | 'serial'>;
  realm?: 'staff' | 'controller';
}) {
  const { t } = useTranslation('devices');
  const replace = useReplaceSecret(realm);
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<DeviceSecretReplaced | null>(null);
  const external = result?.connection.broker?.kind === 'external';
  return (
    <>
      <Button
        size="compact-sm"
        variant="light"
        color="danger"
        aria-label={t('secret.actionFor', { serial: device.serial })}
        onClick={() => setConfirming(true)}
      >
        {t('secret.action')}
      </Button>
      {confirming && (
        <ConfirmModal
          title={t('secret.confirm.title', { serial: device.serial })}
          body={<Text size="sm">{t('secret.confirm.body')}</Text>}
          confirm={t('secret.confirm.action')}
          onClose={() => setConfirming(false)}
          onConfirm={async () => {
            setResult(await replace.mutateAsync(device.id));
            return { message: t('secret.issued', { serial: device.serial }) };
          }}
        />
      )}
      {result && (
        <Modal
          opened
          onClose={() => undefined}
          closeOnClickOutside={false}
          closeOnEscape={false}
          withCloseButton={false}
          title={t('secret.done.title', { serial: result.data.serial })}
          size="lg"
        >
          <DeviceSecretOnce result={result} title={t('secret.done.alert')} onStored={() => setResult(null)}>
            <Text size="sm" data-testid="secret-revoked">
              {t('secret.done.revoked')}
              {result.disconnected ? ` ${t('secret.done.disconnected')}` : ''}
            </Text>
            {external && (
              <Alert color="yellow" data-testid="secret-external">
                {t('secret.done.external')}
              </Alert>
            )}
          </DeviceSecretOnce>
        </Modal>
      )}
    </>
  );
}
