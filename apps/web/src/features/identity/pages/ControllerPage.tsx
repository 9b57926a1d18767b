import { Button, Group, Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { controllerSession, useControllerSession } from '../../../app/auth/controllerSession';
import { PublicLayout } from '../../../shared/ui/PublicLayout';
import { FleetConsole } from '../../devices/components/FleetConsole';
import { controllerApi } from '../calls';

/**
 * /controller: the controller area's own session (01 §4) and its work: the dispenser fleet with the
 * command console (issue 8).
 */
export function ControllerPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const me = useQuery({ queryKey: ['controller', 'me'], queryFn: controllerApi.me, retry: false });

  const signOut = async () => {
    try {
      await controllerApi.signOut();
    } catch (error) {
      console.error('Controller sign-out failed; the local session is cleared anyway', error);
    }
    controllerSession.end();
  };

  // A controller token the server no longer accepts ends the controller session (api-client, 401).
  const { status } = useControllerSession();
  useEffect(() => {
    if (status === 'signedOut') navigate('/controller/login', { replace: true });
  }, [status, navigate]);

  return (
    <PublicLayout title={t('controller.title')} width={1280}>
      <Group justify="space-between" wrap="wrap">
        {me.data ? (
          <div>
            <Text data-testid="controller-name">{t('controller.signedInAs', { name: me.data.name })}</Text>
            <Text c="dimmed" size="sm">
              {me.data.email}
            </Text>
          </div>
        ) : (
          <Loader size="sm" aria-label={t('common.loading')} />
        )}
        <Button variant="default" onClick={() => void signOut()}>
          {t('controller.signOut')}
        </Button>
      </Group>
      {me.data ? <FleetConsole /> : null}
    </PublicLayout>
  );
}
