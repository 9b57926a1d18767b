import { logsContract as c, type StaffActivity } from '@caredeck/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../shared/api-client';

export function useStaffActivity(programId: number, start: string, end: string, enabled: boolean) {
  return useQuery({
    queryKey: ['logs', 'summary', programId, start, end],
    queryFn: async ({ signal }) =>
      (
        await api.call(
          c.adminLogs,
          { params: { programId: String(programId) }, query: { summary: '1', start, end, per_page: '100' } },
          { signal },
        )
      ).data as StaffActivity[],
    enabled: enabled && programId > 0,
    placeholderData: keepPreviousData,
    retry: 1,
  });
}

export function useStaffDays(programId: number, adminId: number | null, start: string, end: string) {
  return useQuery({
    queryKey: ['logs', 'days', programId, adminId, start, end],
    queryFn: async ({ signal }) => {
      const params = { programId: String(programId), id: String(adminId) };
      const range = { programId: String(programId), adminId: String(adminId), start, end };
      const [detail, days, logins] = await Promise.all([
        api.call(c.adminLog, { params, query: { start, end } }, { signal }),
        api.call(c.dayWise, { params, query: { start, end } }, { signal }),
        api.call(c.loginLogoutLogs, { params: range }, { signal }),
      ]);
      return { detail: detail.data, days: days.data, logins: logins.data, loginsTotal: logins.total };
    },
    enabled: adminId !== null && programId > 0,
    retry: 1,
  });
}
