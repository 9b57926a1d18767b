import { Alert, Button, Group, Loader } from '@mantine/core';
import type { ReactNode } from 'react';

export type LoadedTexts = { loading: string; error: string; retry: string };

/**
 * A query's three faces: a loader while nothing is there, the failure with a retry (when no earlier data
 * can be shown), or the content.
 */
export function Loaded<T>({
  query,
  texts,
  children,
}: {
  query: { data?: T; isError: boolean; refetch: () => unknown };
  texts: LoadedTexts;
  children: (data: T) => ReactNode;
}) {
  if (query.isError && !query.data)
    return (
      <Alert color="red" title={texts.error}>
        <Button size="xs" variant="light" onClick={() => void query.refetch()}>
          {texts.retry}
        </Button>
      </Alert>
    );
  if (!query.data)
    return (
      <Group justify="center" py="md">
        <Loader size="sm" aria-label={texts.loading} />
      </Group>
    );
  return <>{children(query.data)}</>;
}
