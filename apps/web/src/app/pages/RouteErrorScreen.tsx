import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { browserNavigation } from '../../shared/browser';
import { PublicLayout } from '../../shared/ui/PublicLayout';
import { usePageTitle } from '../documentTitle';
import { ChunkLoadError } from '../lazyPage';

function ErrorScreen({ chunk }: { chunk: boolean }) {
  const { t } = useTranslation();
  const title = chunk ? t('pages.chunkError.title') : t('pages.error.title');
  usePageTitle(title);
  return (
    <PublicLayout title={title}>
      <Text role="alert">{chunk ? t('pages.chunkError.message') : t('pages.error.message')}</Text>
      <Group justify="flex-end">
        <Button onClick={() => browserNavigation.reload()} data-testid="route-error-retry">
          {chunk ? t('common.retry') : t('pages.error.reload')}
        </Button>
      </Group>
    </PublicLayout>
  );
}

/** The retry screen of a page whose code did not load (01 §2: time-out 120 s). Retrying reloads the app. */
export function ChunkErrorScreen() {
  return <ErrorScreen chunk />;
}

/** Shown when a route fails to load or render. */
export function RouteErrorScreen() {
  const error = useRouteError();
  const chunk = error instanceof ChunkLoadError;
  if (!chunk) console.error('Route error', error);
  return <ErrorScreen chunk={chunk} />;
}
