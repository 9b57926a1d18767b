import {
  type AlertSettingsValues,
  type AlertType,
  analyticsContract,
  alertsContract as c,
  legacyAlertsContract,
  type RuleBody,
  rulesContract,
  smsContract,
} from '@caredeck/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  ALERT_ESCALATED_EVENT,
  ALERT_RULE_EVENT,
  ALERTS_CHANGED_EVENT,
  onLiveEvent,
  reloadLive,
  SMS_CHANGED_EVENT,
} from '../../app/realtime';
import { api } from '../../shared/api-client';
import { type ActiveScope, scopeKey } from '../tenancy/scope';

export const ALERTS_KEY = ['alerts'] as const;
/** Snooze lengths offered, in minutes. */
export const SNOOZE_CHOICES = ['60', '240', '1440', '10080'] as const;

/** The scope query of the alert calls that name no program: the enterprise, or the active program. */
export function scopeQuery(scope: ActiveScope | null): { program_id?: string; enterprise_id?: string } {
  if (!scope) return {};
  if (scope.enterpriseScope && scope.enterprise) return { enterprise_id: String(scope.enterprise.id) };
  return { program_id: String(scope.programId) };
}

export function useAlertTiles(scope: ActiveScope | null) {
  return useQuery({
    queryKey: [...ALERTS_KEY, 'tiles', scopeKey(scope)],
    queryFn: ({ signal }) => api.call(c.groups, { query: scopeQuery(scope) }, { signal }),
    enabled: scope !== null,
    placeholderData: keepPreviousData,
    retry: 1,
  });
}

export type AlertListFilter = {
  type: AlertType | 'all';
  period: string;
  status: 'active' | 'resolved' | 'all' | 'escalated';
  query: string;
  assigned: '' | 'me' | 'nobody';
  page: number;
};

export function useAlertList(scope: ActiveScope | null, f: AlertListFilter) {
  return useQuery({
    queryKey: [...ALERTS_KEY, 'list', scopeKey(scope), f],
    queryFn: ({ signal }) =>
      api.call(
        c.list,
        {
          params: { type: f.type, period: f.period, cohort: 'all' },
          query: {
            ...scopeQuery(scope),
            page: String(f.page),
            status: f.status,
            ...(f.query ? { query: f.query } : {}),
            ...(f.assigned ? { assigned: f.assigned } : {}),
          },
        },
        { signal },
      ),
    enabled: scope !== null,
    placeholderData: keepPreviousData,
    retry: 1,
  });
}

/** The patients with the most pressing open alerts of the active program (escalated first, then most alerts). */
export function useTriage(scope: ActiveScope | null, page = { page: 1, perPage: 8, name: '' }) {
  const programId = scope && !scope.enterpriseScope ? scope.programId : null;
  return useQuery({
    queryKey: [...ALERTS_KEY, 'triage', programId, page],
    queryFn: async ({ signal }) => {
      const result = await api.call(
        legacyAlertsContract.summary,
        {
          params: { programId: String(programId) },
          query: {
            grouped: '1',
            page: String(page.page),
            per_page: String(page.perPage),
            ...(page.name ? { name: page.name } : {}),
          },
        },
        { signal },
      );
      if (!('current_page' in result)) throw new Error('Unexpected answer');
      return result;
    },
    enabled: programId !== null,
    placeholderData: keepPreviousData,
  });
}

/** Alert analytics of the period for the active scope (the enterprise's programs, or one program). */
export function useAlertAnalytics(scope: ActiveScope | null, start: string, end: string, enabled: boolean) {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return useQuery({
    queryKey: [...ALERTS_KEY, 'analytics', scopeKey(scope), start, end],
    queryFn: async ({ signal }) => {
      const query = { count: '1' as const, zone };
      const result =
        scope?.enterpriseScope && scope.enterprise
          ? await api.call(
              analyticsContract.enterprise,
              {
                params: { enterpriseId: String(scope.enterprise.id), startDate: start, endDate: end },
                query,
              },
              { signal },
            )
          : await api.call(
              analyticsContract.program,
              { params: { programId: String(scope!.programId), startDate: start, endDate: end }, query },
              { signal },
            );
      if (!('total' in result.data)) throw new Error('Unexpected answer');
      return result.data;
    },
    enabled: scope !== null && enabled,
    placeholderData: keepPreviousData,
  });
}

export function useAlertDetail(id: number | null) {
  return useQuery({
    queryKey: [...ALERTS_KEY, 'detail', id],
    queryFn: ({ signal }) => api.call(c.detail, { params: { id: String(id) } }, { signal }),
    enabled: id !== null,
  });
}

/** A step on alerts, answering how many it changed (and, for a snooze, until when). */
export type AlertStep = () => Promise<{ count: number; until?: string }>;

export const alertActions = {
  clear: (ids: number[]) => api.call(c.deleteAlerts, { body: { ids } }),
  acknowledge: (ids: number[]) => api.call(c.acknowledge, { body: { ids } }),
  snooze: (ids: number[], minutes: number) => api.call(c.snooze, { body: { ids, minutes } }),
  assign: (ids: number[], adminId: number | null) => api.call(c.assign, { body: { ids, admin_id: adminId } }),
  hide: (programId: number, ids: number[]) =>
    api.call(c.analyticsHide, { params: { programId: String(programId) }, body: { alerts: ids } }),
};

/** Reloads the board when the server says it changed (a reading opened or resolved an alert, a colleague acted). */
export function useLiveAlerts(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onLiveEvent(ALERTS_CHANGED_EVENT, () => {
        void reloadLive(queryClient, { queryKey: ALERTS_KEY });
      }),
    [queryClient],
  );
  // Texts from unknown numbers are no alert rows: their tile and list follow the texts.
  useEffect(
    () =>
      onLiveEvent(SMS_CHANGED_EVENT, () => {
        void reloadLive(queryClient, { queryKey: [...ALERTS_KEY, 'tiles'] });
        void reloadLive(queryClient, { queryKey: TEMP_KEY });
      }),
    [queryClient],
  );
}

export const TEMP_KEY = [...ALERTS_KEY, 'temp'] as const;

/** Unknown numbers that texted the program (or the enterprise's programs the caller sees). */
export function useTempThreads(scope: ActiveScope | null) {
  const programId = scope && !scope.enterpriseScope ? String(scope.programId) : undefined;
  return useQuery({
    queryKey: [...TEMP_KEY, 'threads', scopeKey(scope)],
    queryFn: ({ signal }) =>
      api.call(smsContract.tempThreads, { query: programId ? { program_id: programId } : {} }, { signal }),
    enabled: scope !== null,
    retry: 1,
  });
}

export function useTempHistory(phone: string | null, programId: number) {
  return useQuery({
    queryKey: [...TEMP_KEY, 'history', phone, programId],
    queryFn: ({ signal }) =>
      api.call(
        smsContract.tempHistory,
        { params: { phone: phone ?? '' }, query: { program_id: String(programId) } },
        { signal },
      ),
    enabled: phone !== null,
    retry: 1,
  });
}

export const tempCalls = {
  reply: (programId: number, phone: string, message: string) =>
    api.call(smsContract.tempMessage, {
      params: { programId: String(programId) },
      body: { phone_number: phone, message },
    }),
  markRead: (ids: number[]) => api.call(smsContract.markTempRead, { body: { msg_ids: ids } }),
};

export const RULES_KEY = [...ALERTS_KEY, 'rules'] as const;

export function useRules(programId: number | null) {
  return useQuery({
    queryKey: [...RULES_KEY, programId],
    queryFn: ({ signal }) =>
      api.call(rulesContract.list, { query: { program_id: String(programId) } }, { signal }),
    enabled: programId !== null,
  });
}

export const ruleCalls = {
  create: (body: RuleBody) => api.call(rulesContract.create, { body }),
  update: (id: number, body: Omit<RuleBody, 'program_id'>) =>
    api.call(rulesContract.update, { params: { id: String(id) }, body }),
  remove: (id: number) => api.call(rulesContract.remove, { params: { id: String(id) } }),
  dryRun: (body: RuleBody) => api.call(rulesContract.dryRun, { body }),
};

/** The query of one settings level: nothing (the program), `cohort_id` or `patient_id`. */
const levelQuery = (level: { cohort_id?: number; patient_id?: number }) =>
  Object.fromEntries(Object.entries(level).map(([k, v]) => [k, String(v)]));

export function useAlertSettings(
  programId: number | null,
  level: { cohort_id?: number; patient_id?: number } = {},
) {
  return useQuery({
    queryKey: [...ALERTS_KEY, 'settings', programId, level],
    queryFn: ({ signal }) =>
      api.call(
        c.settings,
        { params: { programId: String(programId) }, query: levelQuery(level) },
        { signal },
      ),
    enabled: programId !== null,
  });
}

export const saveAlertSettings = (
  programId: number,
  settings: AlertSettingsValues,
  level: { cohort_id?: number; patient_id?: number } = {},
) =>
  api.call(c.saveSettings, {
    params: { programId: String(programId) },
    query: levelQuery(level),
    body: { settings },
  });

export const completeEscalations = (programId: number, patientIds: number[]) =>
  api.call(legacyAlertsContract.markEscalationCompleted, {
    params: { programId: String(programId) },
    body: { users: patientIds },
  });

/**
 * Tells the signed-in user, wherever they are in the console, that an alert was escalated to their role or
 * a rule naming their role raised one: a toast that opens the alert on the board.
 */
export function useAlertNotices(
  show: (kind: 'escalated' | 'rule', alertType: string, alertId: number) => void,
): void {
  useEffect(() => {
    const escalated = onLiveEvent(ALERT_ESCALATED_EVENT, (payload) => {
      const p = payload as { alert_id: number; type: string };
      show('escalated', p.type, p.alert_id);
    });
    const rule = onLiveEvent(ALERT_RULE_EVENT, (payload) => {
      const p = payload as { alert_id: number; type: string };
      show('rule', p.type, p.alert_id);
    });
    return () => {
      escalated();
      rule();
    };
  }, [show]);
}
