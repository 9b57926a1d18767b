import { Alert, Group, Loader, Pagination, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SearchBox } from '../../../shared/ui/SearchBox';
import { useActiveScope } from '../../tenancy/scope';
import { useLiveAlerts, useTriage } from '../api';
import { TriageTable } from '../components/TriageList';
import '../i18n';

/**
 * /worklist: the day's work in order: every patient of the program with open alerts, escalated first,
 * then the most alerts, then the newest; search and page in the URL; live with the board.
 */
export function WorklistPage() {
  const { t, i18n } = useTranslation('alerts');
  const scope = useActiveScope();
  useLiveAlerts();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const name = params.get('q') ?? '';
  const triage = useTriage(scope, { page, perPage: 25, name });
  const set = (next: Record<string, string>) =>
    setParams((current) => {
      const p = new URLSearchParams(current);
      for (const [k, v] of Object.entries(next)) {
        if (v) p.set(k, v);
        else p.delete(k);
      }
      return p;
    });
  const rows = triage.data?.data ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={1} fz="h2">
            {i18n.t('nav.worklist')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('worklist.hint')}
          </Text>
        </div>
        <SearchBox label={t('filters.search')} value={name} onSearch={(q) => set({ q, page: '' })} w={260} />
      </Group>
      {scope?.enterpriseScope ? (
        <Alert color="blue">{t('tabs.chooseProgram')}</Alert>
      ) : triage.isError ? (
        <Alert color="red">{t('listError')}</Alert>
      ) : !triage.data ? (
        <Group justify="center">
          <Loader aria-label={t('loading')} />
        </Group>
      ) : rows.length === 0 ? (
        <Text c="dimmed" ta="center" py="md">
          {t('worklist.empty')}
        </Text>
      ) : (
        <Paper withBorder radius="md" p="md">
          <TriageTable rows={rows} />
          {triage.data.last_page > 1 && (
            <Group justify="center" mt="sm">
              <Pagination
                value={page}
                total={triage.data.last_page}
                onChange={(p) => set({ page: String(p) })}
              />
            </Group>
          )}
        </Paper>
      )}
    </Stack>
  );
}
