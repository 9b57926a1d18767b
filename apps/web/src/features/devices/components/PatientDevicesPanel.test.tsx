import {
  devicesContract as c,
  type Device,
  type DeviceRegistered,
  type DeviceSchedule,
  type DeviceSecretReplaced,
  deviceChannelContract,
  userContract,
} from '@caredeck/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../shared/i18n';
import { mockFetch, on } from '../../../test/fetchMock';
import { makeUser } from '../../../test/fixtures';
import { renderWithProviders, signInForTest } from '../../../test/render';
import { scopeStore } from '../../tenancy/scope';
import { PatientDevicesPanel } from './PatientDevicesPanel';

/** The device list's paged answer (issue 27). */
const page = <T,>(data: T[]) => ({ data, current_page: 1, last_page: 1, per_page: 100, total: data.length });

const PATIENT = 5;

const device = (over: Partial<Device> = {}): Device => ({
  id: 40,
  serial: 'MED-777',
  vendor: 'medesto',
  kind: 'dispenser',
  dispenser_type: 2,
  program_id: 1,
  patient: { id: PATIENT, name: 'Rosa Diaz' },
  verified: true,
  connected: false,
  online: false,
  last_seen_at: null,
  last_event_type: null,
  battery: null,
  pods_loaded: null,
  firmware: null,
  provisioned_at: '2026-11-20T15:00:00.000Z',
  ...over,
});

const registered = (d: Device): DeviceRegistered => ({
  message: 'Device provisioned',
  data: d,
  secret: 'S3cr3t-once-abcdefghijklmnopqrstuv',
  connection: {
    broker: { kind: 'embedded', host: 'mqtt.clinic.example', port: 1884 },
    username: d.serial,
    topics: {
      events: `devices/${d.serial}/events`,
      replies: `devices/${d.serial}/replies`,
      commands: `devices/${d.serial}/commands`,
      rejections: `devices/${d.serial}/rejections`,
      status: `devices/${d.serial}/status`,
    },
  },
});

function start(role: 'admin' | 'pharmacy' = 'admin') {
  signInForTest();
  const user = makeUser({ roles: [{ name: role, program_id: 1, enterprise_id: null }] });
  scopeStore.set({
    userId: user.id,
    programId: 1,
    program: user.programs[0]!,
    enterprise: null,
    enterpriseScope: false,
  });
  return user;
}

const render = () => renderWithProviders(<PatientDevicesPanel patientId={PATIENT} />);

async function openDialog() {
  await userEvent.click(await screen.findByRole('button', { name: 'Add device' }));
  return screen.findByRole('dialog');
}

describe('registering a device on the patient’s Devices tab', () => {
  it('registers a Medesto dispenser, shows its secret once and lists it after an explicit close', async () => {
    const user = start();
    let list: Device[] = [];
    const api = mockFetch({
      [on(userContract.me)]: { body: user },
      [on(c.list)]: () => ({ body: page(list) }),
      [on(c.medesto)]: () => {
        list = [device()];
        return { status: 201, body: registered(device()) };
      },
      [on(c.dispenser, { id: 40 })]: {
        body: { ...device(), subscribed: false, recent_events: [], recent_commands: [] },
      },
      [on(deviceChannelContract.patientSchedules, { id: PATIENT })]: { body: { data: [] } },
    });
    render();
    expect(await screen.findByText('The patient has no device.')).toBeInTheDocument();
    const dialog = await openDialog();
    expect(within(dialog).getByRole('radio', { name: 'Medesto dispenser' })).toBeChecked();

    // Checked here first: required, then the contract's serial pattern.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Register device' }));
    expect(within(dialog).getByText('This field is required.')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText(/^Serial number/), 'MED 777!');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Register device' }));
    expect(within(dialog).getByText(/^Use up to 64 letters/)).toBeInTheDocument();
    expect(api.callsTo(on(c.medesto))).toHaveLength(0);

    await userEvent.clear(within(dialog).getByLabelText(/^Serial number/));
    await userEvent.type(within(dialog).getByLabelText(/^Serial number/), ' MED-777 ');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Type 2 (command and argument)' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Register device' }));

    const once = await within(dialog).findByTestId('device-secret-once');
    expect(api.callsTo(on(c.medesto))[0]?.body).toEqual({
      serial: 'MED-777',
      dispenser_type: 2,
      program_id: 1,
      patient_id: PATIENT,
    });
    expect(within(once).getByTestId('device-secret')).toHaveTextContent('S3cr3t-once-abcdefghijklmnopqrstuv');
    expect(within(once).getByTestId('device-username')).toHaveTextContent('MED-777');
    expect(once).toHaveTextContent('mqtt://mqtt.clinic.example:1884');
    expect(once).toHaveTextContent('devices/MED-777/events');
    expect(once).toHaveTextContent('devices/MED-777/commands');
    expect(within(once).getByRole('alert')).toHaveTextContent('This secret is shown only once.');
    expect(within(once).getByRole('button', { name: 'Copy secret' })).toBeInTheDocument();

    // The list behind the dialog already shows the device; Escape does not close the secret away.
    const panel = screen.getByTestId('patient-devices');
    await waitFor(() => expect(panel.querySelector('[data-serial="MED-777"]')).not.toBeNull());
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();

    await userEvent.click(within(once).getByRole('button', { name: 'I have stored the secret' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('row', { name: /MED-777/ })).toHaveTextContent('Dispenser · Type 2');
  });

  it('says in the dialog when the serial is already registered (409), without a toast', async () => {
    const user = start();
    mockFetch({
      [on(userContract.me)]: { body: user },
      [on(c.list)]: { body: page([]) },
      [on(c.medesto)]: {
        status: 409,
        body: { message: 'A device with this serial number already exists.' },
      },
    });
    render();
    const dialog = await openDialog();
    await userEvent.type(within(dialog).getByLabelText(/^Serial number/), 'CD-000001');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Register device' }));
    expect(await within(dialog).findByTestId('register-problem')).toHaveTextContent(
      'A device with this serial number is already registered. Check the serial on the device label',
    );
    expect(screen.queryByText('A device with this serial number already exists.')).toBeNull();
    expect(within(dialog).queryByTestId('device-secret-once')).toBeNull();
  });

  it('shows the server’s 422 messages under the fields, and the rest in the dialog', async () => {
    const user = start();
    const api = mockFetch({
      [on(userContract.me)]: { body: user },
      [on(c.list)]: { body: page([]) },
      [on(c.createInhaler)]: {
        status: 422,
        body: {
          message: 'The given data was invalid.',
          errors: {
            serial: ['Use 1–64 letters, digits, dots, dashes, colons or underscores.'],
            patient_id: ['The patient is not in this program.'],
          },
        },
      },
    });
    render();
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Smart inhaler' }));
    await userEvent.type(within(dialog).getByLabelText(/^Serial number/), 'INH-9');
    await userEvent.click(within(dialog).getByRole('switch', { name: 'Serial checked against the inhaler' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Register device' }));
    const serial = within(dialog).getByLabelText(/^Serial number/);
    await waitFor(() => expect(serial).toHaveAttribute('aria-invalid', 'true'));
    expect(
      within(dialog).getByText('Use 1–64 letters, digits, dots, dashes, colons or underscores.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByTestId('register-problem')).toHaveTextContent(
      'The patient is not in this program.',
    );
    expect(api.callsTo(on(c.createInhaler))[0]?.body).toEqual({
      serial: 'INH-9',
      verified: true,
      program_id: 1,
      patient_id: PATIENT,
    });
  });

  it('claims a vendor device by its id: an unknown id shows under the field', async () => {
    const user = start();
    const api = mockFetch({
      [on(userContract.me)]: { body: user },
      [on(c.list)]: { body: page([]) },
      [on(c.integrations)]: {
        body: {
          data: [
            {
              vendor: 'omron',
              name: 'Omron blood-pressure cuffs',
              kinds: ['bp_cuff'],
              channel: 'mqtt',
              devices: 3,
            },
          ],
        },
      },
      [on(c.provision, { vendor: 'omron' })]: { status: 400, body: { message: 'Unknown Device: BP-404' } },
    });
    render();
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Vendor device' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Register device' }));
    expect(within(dialog).getAllByText('This field is required.')).toHaveLength(2);
    await userEvent.click(within(dialog).getByRole('combobox', { name: /^Vendor/ }));
    await userEvent.click(await screen.findByRole('option', { name: /Omron blood-pressure cuffs/ }));
    await userEvent.type(within(dialog).getByLabelText(/^Vendor device id/), 'BP-404');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Register device' }));
    expect(await within(dialog).findByText('Unknown Device: BP-404')).toBeInTheDocument();
    expect(api.callsTo(on(c.provision, { vendor: 'omron' }))[0]?.body).toEqual({
      device_id: 'BP-404',
      program_id: 1,
      patient_id: PATIENT,
    });
  });

  it('offers no Add device to roles that may not register devices', async () => {
    const user = start('pharmacy');
    mockFetch({
      [on(userContract.me)]: { body: user },
      [on(c.list)]: { body: page([device({ kind: 'inhaler', dispenser_type: null, serial: 'INH-1' })]) },
    });
    render();
    expect(await screen.findByText('INH-1')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add device' })).toBeNull();
  });
});

describe('giving a device a new secret (lost or leaked)', () => {
  const replaced = (d: Device, over: Partial<DeviceSecretReplaced> = {}): DeviceSecretReplaced => ({
    ...registered(d),
    message: 'New secret issued. The old secret no longer works.',
    secret: 'N3w-s3cret-0123456789abcdefghijkl',
    disconnected: 1,
    ...over,
  });
  const handlers = (user: ReturnType<typeof start>, answer: DeviceSecretReplaced) => ({
    [on(userContract.me)]: { body: user },
    [on(c.list)]: { body: page([device({ connected: true })]) },
    [on(c.replaceSecret, { id: 40 })]: { body: answer },
    [on(c.dispenser, { id: 40 })]: {
      body: { ...device(), subscribed: false, recent_events: [], recent_commands: [] },
    },
    [on(deviceChannelContract.patientSchedules, { id: PATIENT })]: { body: { data: [] } },
  });

  it('asks first, then shows the new secret once with a copy button until the user says it is stored', async () => {
    const user = start();
    const api = mockFetch(handlers(user, replaced(device())));
    render();
    const row = await screen.findByRole('row', { name: /MED-777/ });
    await userEvent.click(within(row).getByRole('button', { name: 'New secret for MED-777' }));

    // Nothing happens before the confirmation; cancelling calls nothing.
    const confirm = await screen.findByRole('dialog', { name: 'Give MED-777 a new secret?' });
    expect(confirm).toHaveTextContent(
      'The current secret stops working at once and the device is disconnected',
    );
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo(on(c.replaceSecret, { id: 40 }))).toHaveLength(0);

    await userEvent.click(within(row).getByRole('button', { name: 'New secret for MED-777' }));
    const again = await screen.findByRole('dialog', { name: 'Give MED-777 a new secret?' });
    await userEvent.click(within(again).getByRole('button', { name: 'Issue new secret' }));

    const shown = await screen.findByRole('dialog', { name: 'New secret for MED-777: store it now' });
    expect(api.callsTo(on(c.replaceSecret, { id: 40 }))).toHaveLength(1);
    const once = within(shown).getByTestId('device-secret-once');
    expect(within(once).getByTestId('device-secret')).toHaveTextContent('N3w-s3cret-0123456789abcdefghijkl');
    expect(within(once).getByRole('alert')).toHaveTextContent('This secret is shown only once.');
    expect(within(once).getByRole('button', { name: 'Copy secret' })).toBeInTheDocument();
    expect(within(once).getByTestId('secret-revoked')).toHaveTextContent(
      'The old secret no longer works. Enter the new one in the device; until then it cannot connect. The device was connected with the old secret and has been disconnected.',
    );
    expect(within(once).queryByTestId('secret-external')).toBeNull();
    expect(screen.getByText('New secret issued for MED-777.')).toBeInTheDocument();

    // The secret does not go away by a slip: Escape keeps it, there is no close button.
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'New secret for MED-777: store it now' })).toBeInTheDocument();
    expect(within(shown).queryByRole('button', { name: 'Close' })).toBeNull();
    await userEvent.click(within(once).getByRole('button', { name: 'I have stored the secret' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByText('N3w-s3cret-0123456789abcdefghijkl')).toBeNull();
  });

  it('says that an external broker must be given the new password too', async () => {
    const user = start();
    mockFetch(
      handlers(
        user,
        replaced(device(), {
          disconnected: null,
          connection: {
            ...registered(device()).connection,
            broker: { kind: 'external', host: 'broker.clinic.example', port: 1883 },
          },
        }),
      ),
    );
    render();
    const row = await screen.findByRole('row', { name: /MED-777/ });
    await userEvent.click(within(row).getByRole('button', { name: 'New secret for MED-777' }));
    const confirm = await screen.findByRole('dialog', { name: 'Give MED-777 a new secret?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Issue new secret' }));
    const external = await screen.findByTestId('secret-external');
    expect(external).toHaveTextContent('replace this device’s password there too');
    expect(screen.getByTestId('secret-revoked')).not.toHaveTextContent('has been disconnected');
  });

  it('is not offered to roles that may not register devices', async () => {
    const user = start('pharmacy');
    mockFetch(handlers(user, replaced(device())));
    render();
    expect(await screen.findByRole('row', { name: /MED-777/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /New secret/ })).toBeNull();
  });
});

describe('the dose schedule of the patient’s dispenser', () => {
  const schedule = (
    id: number,
    status: DeviceSchedule['status'],
    sent_at: string | null,
  ): DeviceSchedule => ({
    id,
    patient_id: PATIENT,
    device_id: 40,
    group_id: null,
    regimen_id: null,
    times: [`0${id}:00`],
    weekdays: [0, 1, 2, 3, 4, 5, 6],
    status,
    sent_at,
    created_at: '2026-11-24T07:00:00.000Z',
  });

  it('says of each schedule whether it was sent, waits for the dispenser, or was replaced before sending', async () => {
    const user = start();
    mockFetch({
      [on(userContract.me)]: { body: user },
      [on(c.list)]: { body: page([device()]) },
      [on(c.dispenser, { id: 40 })]: {
        body: { ...device(), subscribed: false, recent_events: [], recent_commands: [] },
      },
      [on(deviceChannelContract.patientSchedules, { id: PATIENT })]: {
        body: {
          data: [
            schedule(3, 'pending', null),
            schedule(2, 'superseded', null),
            schedule(1, 'sent', '2026-11-24T08:05:00.000Z'),
          ],
        },
      },
    });
    render();
    const table = await screen.findByTestId('schedules');
    const status = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[2]!);
    expect(status()[0]).toHaveTextContent(/^Waiting for the dispenser to connect$/);
    expect(status()[1]).toHaveTextContent(/^Replaced by a newer schedule before it was sent$/);
    expect(status()[2]).toHaveTextContent(/^Sent to the dispenser/);
    expect(status()[2]).toHaveTextContent(/11\/24\/26/);

    await act(() => i18n.changeLanguage('de'));
    expect(status()[1]).toHaveTextContent('Vor dem Senden durch einen neueren Plan ersetzt');
  });
});
