import { Anchor, Button, Code, CopyButton, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconExternalLink } from '@tabler/icons-react';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';

const QR_PX = 200;

function QrUnavailable() {
  const { t } = useTranslation();
  return (
    <Text size="sm" c="dimmed" maw={QR_PX}>
      {t('settings.mfa.qrUnavailable')}
    </Text>
  );
}

// The QR encoder is loaded only when someone enrols: it stays out of the console's first load.
const MfaQrCode = lazy(() =>
  import('./MfaQrCode').then(
    (module) => ({ default: module.MfaQrCode }),
    () => ({ default: QrUnavailable }),
  ),
);

/** 'JBSW Y3DP EHPK 3PXP': groups of four, as authenticator apps show keys and people read them out. */
export function groupSecret(secret: string): string {
  return (secret.match(/.{1,4}/g) ?? []).join(' ');
}

export interface MfaEnrolmentProps {
  secret: string;
  otpauthUrl: string;
  /** The code form that turns two-factor authentication on (with its cancel). */
  children: ReactNode;
}

/** Enrolment: scan the QR code, or open the link, or type the grouped key; then confirm with a code. */
export function MfaEnrolment({ secret, otpauthUrl, children }: MfaEnrolmentProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Text size="sm">{t('settings.mfa.instructions')}</Text>
      <Group align="flex-start" gap="xl">
        <Suspense fallback={<Skeleton w={QR_PX} h={QR_PX} />}>
          <MfaQrCode value={otpauthUrl} label={t('settings.mfa.qrLabel')} px={QR_PX} />
        </Suspense>
        <Stack gap="sm" style={{ flex: '1 1 260px' }}>
          <div>
            <Text size="sm" fw={600}>
              {t('settings.mfa.secret')}
            </Text>
            <Group gap="xs" mt={4} wrap="nowrap">
              <Code fz="md" data-testid="mfa-secret" style={{ letterSpacing: '0.05em' }}>
                {groupSecret(secret)}
              </Code>
              <CopyButton value={secret}>
                {({ copied, copy }) => (
                  <Button
                    size="xs"
                    variant="default"
                    onClick={copy}
                    leftSection={
                      copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />
                    }
                    aria-live="polite"
                  >
                    {copied ? t('settings.mfa.copied') : t('settings.mfa.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </div>
          <Anchor
            href={otpauthUrl}
            size="sm"
            data-testid="mfa-otpauth-url"
            style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
          >
            {t('settings.mfa.openLink')}
            <IconExternalLink size={14} aria-hidden />
          </Anchor>
        </Stack>
      </Group>
      {children}
    </Stack>
  );
}
