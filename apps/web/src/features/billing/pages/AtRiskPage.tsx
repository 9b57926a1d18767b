import { minutesSeconds } from '@caredeck/domain';
import { Alert, Anchor, Chip, Loader, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useCurrentUser } from '../../identity/api';
import { useActiveScope } from '../../tenancy/scope';
import { useBillingAtRisk } from '../periods-api';
import '../periods-i18n';

const PER_PAGE = 25;

/** /billings?view=at-risk (issue 30): who will miss the next code this period or month, soonest first. */
export function AtRiskPage() {
  const { t } = useTranslation('billingPeriods');
  const scope = useActiveScope();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  // "Assigned to me" (mine=1 in the URL, ADR 080) waits for the signed-in user rather than asking for everyone.
  const mine = params.get('mine') === '1';
  const me = useCurrentUser()?.id ?? null;
  const result = useBillingAtRisk(mine && !me ? 0 : (scope?.programId ?? 0), {
    page,
    per_page: PER_PAGE,
    assignee_id: mine ? me : null,
  });
  const toggleMine = (checked: boolean) => {
    const next = new URLSearchParams(params);
    if (checked) next.set('mine', '1');
    else next.delete('mine');
    next.delete('page');
    setParams(next);
  };
  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz="h2">
          {t('atRisk.title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('atRisk.subtitle')}
        </Text>
        <Anchor component={Link} to="/billings" size="sm">
          {t('back')}
        </Anchor>
      </div>
      <Chip checked={mine} onChange={toggleMine} data-testid="at-risk-mine" w="fit-content">
        {t('filters.mine')}
      </Chip>
      {result.isError ? (
        <Alert color="danger" role="alert">
          {t('loadError')}
        </Alert>
      ) : !result.data ? (
        <Loader aria-label={t('atRisk.title')} />
      ) : result.data.data.length === 0 ? (
        <Text>{t('atRisk.empty')}</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table striped layout="fixed" data-testid="billing-at-risk-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('atRisk.columns.patient')}</Table.Th>
                  <Table.Th>{t('atRisk.columns.what')}</Table.Th>
                  <Table.Th>{t('atRisk.columns.have')}</Table.Th>
                  <Table.Th>{t('atRisk.columns.needed')}</Table.Th>
                  <Table.Th>{t('atRisk.columns.left')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.data.data.map((r) => {
                  const device = r.kind === 'device_days';
                  return (
                    <Table.Tr key={`${r.patient.id}-${r.kind}`}>
                      <Table.Td>
                        <Anchor component={Link} to={`/patient/${r.patient.id}?tab=time`}>
                          {r.patient.last_name}, {r.patient.first_name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{t(device ? 'atRisk.device' : 'atRisk.time', { code: r.code })}</Table.Td>
                      <Table.Td>
                        {device ? t('atRisk.days', { count: r.have }) : minutesSeconds(r.have)}
                      </Table.Td>
                      <Table.Td>
                        {device ? t('atRisk.days', { count: r.needed }) : minutesSeconds(r.needed)}
                      </Table.Td>
                      <Table.Td>{r.days_left}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {result.data.last_page > 1 && (
            <Pagination
              total={result.data.last_page}
              value={page}
              onChange={(p) => {
                const next = new URLSearchParams(params);
                next.set('page', String(p));
                setParams(next);
              }}
            />
          )}
        </>
      )}
    </Stack>
  );
}
