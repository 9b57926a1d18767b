import { devicesContract as c, type Device } from '@caredeck/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { controllerSession } from '../../../app/auth/controllerSession';
import { mockFetch, on } from '../../../test/fetchMock';
import { renderWithProviders } from '../../../test/render';
import { FleetConsole } from './FleetConsole';

// The live socket is not under test here; the fleet's paging is.
vi.mock('../live', () => ({ useControllerLive: () => undefined }));

const FLEET = 150;
const serial = (n: number) => `D-${String(n).padStart(4, '0')}`;
const dispenser = (n: number): Device => ({
  id: n,
  serial: serial(n),
  vendor: 'medesto',
  kind: 'dispenser',
  dispenser_type: 1,
  program_id: 1,
  patient: null,
  verified: true,
  connected: n % 2 === 0,
  online: n % 2 === 0,
  last_seen_at: null,
  last_event_type: null,
  battery: null,
  pods_loaded: null,
  firmware: null,
  provisioned_at: null,
});

describe('FleetConsole', () => {
  it('pages a fleet larger than a page and searches it on the server', async () => {
    controllerSession.start('controller-token');
    const api = mockFetch({
      [on(c.list)]: ({ url }) => {
        const page = Number(url.searchParams.get('page') ?? '1');
        const part = url.searchParams.get('serial') ?? '';
        const all = Array.from({ length: FLEET }, (_, i) => dispenser(i + 1)).filter((d) =>
          d.serial.includes(part),
        );
        return {
          body: {
            data: all.slice((page - 1) * 100, page * 100),
            current_page: page,
            last_page: Math.max(1, Math.ceil(all.length / 100)),
            per_page: 100,
            total: all.length,
          },
        };
      },
    });
    renderWithProviders(<FleetConsole />);

    const table = await screen.findByTestId('fleet-table');
    expect(within(table).getAllByRole('row')).toHaveLength(101);
    expect(screen.getByTestId('fleet-count')).toHaveTextContent('100 of 150 dispensers');

    await userEvent.click(screen.getByRole('button', { name: 'Next page of the fleet' }));
    await waitFor(() => expect(screen.getByRole('button', { name: serial(150) })).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: serial(1) })).toBeNull();
    expect(screen.getByTestId('fleet-count')).toHaveTextContent('50 of 150 dispensers');

    await userEvent.type(screen.getByLabelText('Find a serial number'), 'D-012');
    await waitFor(() => expect(screen.getByTestId('fleet-count')).toHaveTextContent('10 of 10 dispensers'));
    const asked = api.callsTo(on(c.list)).at(-1)!.url.searchParams;
    expect(asked.get('serial')).toBe('D-012');
    expect(asked.get('page')).toBe('1');
    expect(asked.get('kind')).toBe('dispenser');
    expect(screen.queryByRole('button', { name: 'Next page of the fleet' })).toBeNull();
    controllerSession.end();
  });
});
