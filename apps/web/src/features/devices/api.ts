import { devicesContract as c, type DispenserDetail } from '@caredeck/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/api-client';

const controller = { auth: 'controller' } as const;

/** The dispensers of the fleet, refreshed every few seconds (connection, battery, last event). */
export function useFleet() {
  return useQuery({
    queryKey: ['controller', 'fleet'],
    queryFn: ({ signal }) => api.call(c.list, { query: { kind: 'dispenser' } }, { ...controller, signal }),
    refetchInterval: 5000,
  });
}

export function useDispenser(id: number | null) {
  return useQuery({
    queryKey: ['controller', 'dispenser', id],
    queryFn: ({ signal }) => api.call(c.dispenser, { params: { id: String(id) } }, { ...controller, signal }),
    enabled: id !== null,
    refetchInterval: 5000,
  });
}

export type CommandInput = {
  dispenser: DispenserDetail;
  data: string | { command: string; arg?: string | null };
};

/** Sends a command; the answer is the device's reply, or an error saying it did not answer in time. */
export function useSendCommand() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ dispenser, data }: CommandInput) =>
      api.call(
        c.message,
        {
          params: { id: String(dispenser.id) },
          body: { dispenserType: dispenser.dispenser_type as 1 | 2, data },
        },
        controller,
      ),
    onSettled: (_result, _error, { dispenser }) =>
      client.invalidateQueries({ queryKey: ['controller', 'dispenser', dispenser.id] }),
  });
}
