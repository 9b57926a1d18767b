import { US_DATE_TIME_PATTERN } from '@caredeck/domain';
import { Drawer, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Loaded } from '../../../shared/ui/Loaded';
import { dateOrNotProvided } from '../../../shared/ui/notProvided';
import { DateRangeFields, PeriodPresets } from '../../../shared/ui/PeriodFields';
import { usePeriodParams } from '../../../shared/ui/period';
import { auditActionLabel } from '../../audit/labels';
import { useCurrentUser } from '../../identity/api';
import { useActiveScope } from '../../tenancy/scope';
import { useStaffActivity, useStaffDays } from '../api';
import '../i18n';

const PRESETS = ['7', '30', '90'] as const;

/**
 * /logs: what each staff member did in the program over a period (actions, patients worked on, minutes on
 * pages, sign-ins); a row opens the person's days and sign-ins. Staff without an admin role see themselves.
 */
export function LogsPage() {
  const { t } = useTranslation('logs');
  const scope = useActiveScope();
  const programId = scope && !scope.enterpriseScope ? scope.programId : 0;
  const period = usePeriodParams(30);
  const activity = useStaffActivity(programId, period.start, period.end, period.valid);
  const [open, setOpen] = useState<{ id: number; name: string } | null>(null);
  const zone = useCurrentUser()?.tz ?? null;
  // Every date through the shared formatter, in the language's one order (ADR 054).
  const at = (value: string) => dateOrNotProvided(value, US_DATE_TIME_PATTERN, zone);
  const texts = { loading: t('loading'), error: t('loadError'), retry: t('retry') };
  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz="h2">
          {t('title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('hint')}
        </Text>
      </div>
      {programId === 0 ? (
        <Text>{t('chooseProgram')}</Text>
      ) : (
        <>
          <Group align="flex-end" wrap="wrap">
            <PeriodPresets
              period={period}
              presets={PRESETS}
              label={t('period')}
              presetLabel={(p) => t(`presets.${p as '7'}`)}
            />
            <DateRangeFields period={period} fromLabel={t('from')} toLabel={t('to')} />
          </Group>
          <Loaded query={activity} texts={texts}>
            {(rows) => (
              <Table.ScrollContainer minWidth={640}>
                <Table highlightOnHover verticalSpacing="xs" data-testid="staff-activity">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('staff')}</Table.Th>
                      <Table.Th w={110}>{t('actions')}</Table.Th>
                      <Table.Th w={110}>{t('patients')}</Table.Th>
                      <Table.Th w={120}>{t('minutes')}</Table.Th>
                      <Table.Th w={100}>{t('signIns')}</Table.Th>
                      <Table.Th w={190}>{t('lastAction')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((r) => (
                      <Table.Tr
                        key={r.admin.id}
                        tabIndex={0}
                        style={{ cursor: 'pointer' }}
                        aria-label={t('open', { name: r.admin.name })}
                        onClick={() => setOpen(r.admin)}
                        onKeyDown={(e) => {
                          if (e.key === 'Enter' && e.target === e.currentTarget) setOpen(r.admin);
                        }}
                        data-testid="staff-activity-row"
                      >
                        <Table.Td>{r.admin.name}</Table.Td>
                        <Table.Td>{r.actions}</Table.Td>
                        <Table.Td>{r.patients}</Table.Td>
                        <Table.Td>{r.minutes}</Table.Td>
                        <Table.Td>{r.sign_ins}</Table.Td>
                        <Table.Td>{r.last_at ? at(r.last_at) : '—'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Loaded>
        </>
      )}
      <Drawer
        opened={open !== null}
        onClose={() => setOpen(null)}
        position="right"
        size="lg"
        title={open?.name ?? ''}
      >
        {open && <StaffDays programId={programId} adminId={open.id} start={period.start} end={period.end} />}
      </Drawer>
    </Stack>
  );
}

function StaffDays({
  programId,
  adminId,
  start,
  end,
}: {
  programId: number;
  adminId: number;
  start: string;
  end: string;
}) {
  const { t, i18n } = useTranslation('logs');
  const data = useStaffDays(programId, adminId, start, end);
  const zone = useCurrentUser()?.tz ?? null;
  // Every date through the shared formatter, in the language's one order (ADR 054).
  const at = (value: string) => dateOrNotProvided(value, US_DATE_TIME_PATTERN, zone);
  const texts = { loading: t('loading'), error: t('loadError'), retry: t('retry') };
  return (
    <Loaded query={data} texts={texts}>
      {({ detail, days, logins, loginsTotal }) => (
        <Stack gap="md">
          <Text size="sm" data-testid="staff-by-action">
            {Object.entries(detail.by_action)
              .map(([action, n]) => `${auditActionLabel(action, i18n.language)} × ${n}`)
              .join(' · ') || t('noActions')}
          </Text>
          <section aria-labelledby="log-days">
            <Title order={2} fz="h5" id="log-days">
              {t('days')}
            </Title>
            <Table verticalSpacing={2}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('date')}</Table.Th>
                  <Table.Th>{t('actions')}</Table.Th>
                  <Table.Th>{t('patients')}</Table.Th>
                  <Table.Th>{t('minutes')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {days
                  .filter((d) => d.actions > 0 || d.minutes > 0)
                  .map((d) => (
                    <Table.Tr key={d.date}>
                      <Table.Td>{dateOrNotProvided(d.date)}</Table.Td>
                      <Table.Td>{d.actions}</Table.Td>
                      <Table.Td>{d.patients}</Table.Td>
                      <Table.Td>{d.minutes}</Table.Td>
                    </Table.Tr>
                  ))}
              </Table.Tbody>
            </Table>
          </section>
          <section aria-labelledby="log-logins">
            <Title order={2} fz="h5" id="log-logins">
              {t('logins')}
            </Title>
            {loginsTotal > logins.length && (
              <Text size="xs" c="dimmed" data-testid="logins-showing">
                {t('loginsShowing', { shown: logins.length, count: loginsTotal })}
              </Text>
            )}
            <Stack gap={2}>
              {logins.map((l) => (
                <Text key={l.id} size="sm">
                  {at(l.login_at)} → {l.logout_at ? at(l.logout_at) : t('stillSignedIn')}
                </Text>
              ))}
            </Stack>
          </section>
        </Stack>
      )}
    </Loaded>
  );
}
