import {
  catalogueContract,
  devicesContract,
  type MedicationPlan,
  medicationsContract,
  type PatientRecord,
  userContract,
} from '@caredeck/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type MockHandler, type MockReply, mockFetch, on } from '../../../test/fetchMock';
import { makeUser } from '../../../test/fixtures';
import { renderWithProviders, signInForTest } from '../../../test/render';
import { scopeStore } from '../../tenancy/scope';
import { MedicationPanel } from './MedicationPanel';
import { normaliseTime } from './scheduleFields';

const PATIENT = { id: 11, name: 'Ada Lovelace', time_zone: 'America/New_York' } as PatientRecord;
const params = { programId: 1, id: PATIENT.id };
const program = { programId: 1 };

const REGIMEN = {
  id: 5,
  patient_id: PATIENT.id,
  order_id: 3,
  parent_id: null,
  type: 'medication' as const,
  name: 'Lisinopril 10 mg',
  repeat: 'daily' as const,
  interval: 1,
  timeCascade: false,
  billable: true,
  lockout_time: 0,
  time: ['08:00'],
  num: 1,
  created_by: null,
  // Midnight in New York: Nov 1 to Nov 30, the last day included.
  scheduled_at: '2026-11-01T04:00:00.000Z',
  end_at: '2026-12-01T05:00:00.000Z',
  multi_pod: false,
  unlock_before: 0,
  device_serial: null,
  status: 'active' as const,
  completed_at: null,
  pods: [
    {
      id: 71,
      regimen_id: 5,
      barcode: 'CD0000714',
      prefix: 'CD',
      num: 1,
      original_servings: 28,
      servings_remaining: 12,
      linked_regimen_id: null,
      created_at: '2026-11-01T14:00:00.000Z',
    },
  ],
};

const PLAN: MedicationPlan = {
  regimens: [REGIMEN],
  orders: [],
  scripts: [],
  disease_states: [
    {
      id: 40,
      conditions: [{ code: 'E11.9', description: 'Type 2 diabetes mellitus without complications' }],
      regimen_ids: [],
      script_id: null,
      started_at: '2026-11-01T14:00:00.000Z',
      ended_at: null,
    },
  ],
  recent_usages: [],
};

const ORDER = {
  id: 3,
  patient_id: PATIENT.id,
  regimen_id: null,
  drug_name: 'Metformin',
  strength: '500 mg',
  route: null,
  form: null,
  quantity: null,
  refills: null,
  instructions: null,
  prescriber: null,
  status: 'open',
  created_at: '2026-11-27T14:00:00.000Z',
};

function start(extra: Record<string, MockHandler | MockReply> = {}) {
  signInForTest();
  const api = mockFetch({
    [on(userContract.me)]: { body: makeUser() },
    [on(medicationsContract.plan, params)]: { body: PLAN },
    [on(catalogueContract.drugs, program)]: {
      body: { data: [{ id: 1, name: 'metformin', brands: ['Glucophage'] }] },
    },
    [on(catalogueContract.strengths, { ...program, q: 'Metformin' })]: {
      body: { data: ['500 mg', '850 mg', '1000 mg'] },
    },
    [on(catalogueContract.forms, { ...program, q: 'Metformin' })]: { body: { data: ['tablet'] } },
    [on(catalogueContract.routes, { ...program, q: 'Metformin' })]: { body: { data: ['oral'] } },
    [on(medicationsContract.createOrder, params)]: { status: 201, body: ORDER },
    [on(medicationsContract.createRegimen, { ...params, orderId: 3 })]: {
      status: 201,
      body: { ...REGIMEN, id: 6, name: 'Metformin 500 mg' },
    },
    ...extra,
  });
  renderWithProviders(
    <MemoryRouter>
      <MedicationPanel patient={PATIENT} programId={1} />
    </MemoryRouter>,
  );
  return api;
}

async function openOrderForm() {
  await userEvent.click(await screen.findByRole('button', { name: 'Order a medication' }));
  return screen.findByRole('dialog');
}

describe('ordering a medication', () => {
  it('reads 8:00, 0800 and 8 as 08:00 and keeps anything else as typed', () => {
    expect(normaliseTime('8:00')).toBe('08:00');
    expect(normaliseTime('0800')).toBe('08:00');
    expect(normaliseTime('8')).toBe('08:00');
    expect(normaliseTime('20:30')).toBe('20:30');
    expect(normaliseTime('8pm')).toBe('20:00');
    expect(normaliseTime('8:30 p.m.')).toBe('20:30');
    expect(normaliseTime('12am')).toBe('00:00');
    expect(normaliseTime('13pm')).toBe('13pm');
    expect(normaliseTime('noon')).toBe('noon');
    expect(normaliseTime('25:00')).toBe('25:00');
  });

  it('offers the catalogue as the user types (brand names too), then the chosen drug’s strengths, and schedules from the patient’s midnight', async () => {
    const api = start();
    const dialog = await openOrderForm();
    await userEvent.type(within(dialog).getByTestId('order-drug'), 'glucoph');
    const option = await screen.findByRole('option', { name: /Metformin/ });
    expect(option).toHaveTextContent('Glucophage');
    expect(api.callsTo(on(catalogueContract.drugs, program)).at(-1)?.url.searchParams.get('query')).toBe(
      'glucoph',
    );
    await userEvent.click(option);
    expect(within(dialog).getByTestId('order-drug')).toHaveValue('Metformin');
    await userEvent.click(within(dialog).getByTestId('order-strength'));
    await userEvent.click(await screen.findByRole('option', { name: '500 mg' }));
    const times = within(dialog).getByTestId('order-times');
    await userEvent.type(times, '20{Enter}');
    const first = within(dialog).getByTestId('order-start');
    await userEvent.clear(first);
    await userEvent.type(first, '2026-12-01');
    await userEvent.type(within(dialog).getByTestId('order-end'), '2026-12-10');
    await userEvent.tab();
    await userEvent.click(within(dialog).getByTestId('order-save'));
    expect(await screen.findByText('Medication ordered and scheduled')).toBeInTheDocument();
    expect(api.callsTo(on(medicationsContract.createOrder, params))[0]?.body).toMatchObject({
      drug_name: 'Metformin',
      strength: '500 mg',
      // The catalogue knows metformin as one form by one route: they were filled in.
      form: 'tablet',
      route: 'oral',
    });
    expect(api.callsTo(on(medicationsContract.createRegimen, { ...params, orderId: 3 }))[0]?.body).toEqual({
      name: 'Metformin 500 mg',
      repeat: 'daily',
      time: ['08:00', '20:00'],
      num: 1,
      // Midnight of Dec 1 in New York, and the end of Dec 10 there.
      scheduled_at: '2026-12-01T05:00:00.000Z',
      end_at: '2026-12-11T05:00:00.000Z',
    });
  });

  it('refuses a time that is not HH:MM and an end before the start under their fields, calling nothing', async () => {
    const api = start();
    const dialog = await openOrderForm();
    await userEvent.type(within(dialog).getByTestId('order-drug'), 'Metformin');
    await userEvent.type(within(dialog).getByTestId('order-times'), '25:00{Enter}');
    expect(
      await within(dialog).findByText('Use a time of day as HH:MM (24-hour), e.g. 08:00.'),
    ).toBeInTheDocument();
    const first = within(dialog).getByTestId('order-start');
    await userEvent.clear(first);
    await userEvent.type(first, '2026-12-10');
    await userEvent.type(within(dialog).getByTestId('order-end'), '2026-12-01');
    await userEvent.tab();
    await userEvent.click(within(dialog).getByTestId('order-save'));
    expect(within(dialog).getByText('Use a time of day as HH:MM (24-hour), e.g. 08:00.')).toBeInTheDocument();
    expect(api.callsTo(on(medicationsContract.createOrder, params))).toHaveLength(0);
    // The drug typed is still there.
    expect(within(dialog).getByTestId('order-drug')).toHaveValue('Metformin');
  });

  it('shows a 422 of the regimen under its field, and a retry reuses the order already made', async () => {
    let attempts = 0;
    const api = start({
      [on(medicationsContract.createRegimen, { ...params, orderId: 3 })]: () => {
        attempts += 1;
        return attempts === 1
          ? {
              status: 422,
              body: {
                message: 'Invalid',
                errors: {
                  num: ['At most 20 servings per dose.'],
                  'time.0': ['Use a time of day as HH:MM (24-hour).'],
                },
              },
            }
          : { status: 201, body: { ...REGIMEN, id: 6 } };
      },
    });
    const dialog = await openOrderForm();
    await userEvent.type(within(dialog).getByTestId('order-drug'), 'Metformin');
    await userEvent.click(within(dialog).getByTestId('order-save'));
    expect(await within(dialog).findByText('At most 20 servings per dose.')).toBeInTheDocument();
    // An error of one time (time.0) shows under the times.
    expect(within(dialog).getByText('Use a time of day as HH:MM (24-hour).')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByTestId('order-save'));
    expect(await screen.findByText('Medication ordered and scheduled')).toBeInTheDocument();
    expect(api.callsTo(on(medicationsContract.createOrder, params))).toHaveLength(1);
    expect(api.callsTo(on(medicationsContract.createRegimen, { ...params, orderId: 3 }))).toHaveLength(2);
  });

  it('keeps the form usable with free text when the catalogue lookup fails (an empty list)', async () => {
    start({ [on(catalogueContract.drugs, program)]: { status: 500, body: { message: 'down' } } });
    const dialog = await openOrderForm();
    await userEvent.type(within(dialog).getByTestId('order-drug'), 'Compounded cream');
    await waitFor(() => expect(screen.queryByRole('option')).toBeNull());
    expect(within(dialog).getByTestId('order-drug')).toHaveValue('Compounded cream');
  });
});

describe('the plan on the patient’s clock', () => {
  it("shows the regimen's first and last day in the patient's zone, the zone itself, and each pod with its own label", async () => {
    start();
    const regimen = await screen.findByTestId('regimen');
    expect(regimen).toHaveTextContent('From 11/01/2026 to 11/30/2026');
    expect(screen.getByTestId('medication-zone')).toHaveTextContent('America/New_York');
    await userEvent.click(within(regimen).getByTestId('pods-toggle'));
    const pod = within(regimen).getByTestId('pod');
    expect(pod).toHaveTextContent('CD0000714');
    expect(pod).toHaveTextContent('12 of 28');
    expect(within(pod).getByRole('button', { name: 'Print the label of pod CD0000714' })).toBeInTheDocument();
  });
});

describe('the orders', () => {
  it('name the regimen scheduled under each order', async () => {
    start({
      [on(medicationsContract.plan, params)]: {
        body: {
          ...PLAN,
          orders: [{ ...ORDER, drug_name: 'Lisinopril', strength: '10 mg', regimen_id: null }],
        },
      },
    });
    const order = await screen.findByTestId('medication-order');
    // REGIMEN was scheduled under order 3.
    expect(order.querySelectorAll('td')[3]).toHaveTextContent('Lisinopril 10 mg');
  });
});

describe('disease states', () => {
  it('finds ICD-10-CM codes by words, fills the description, and ends one only after a confirmation', async () => {
    const api = start({
      [on(catalogueContract.diagnosisCodes, program)]: {
        body: {
          data: [
            { code: 'I10', description: 'Essential (primary) hypertension', disease_state: 'Hypertension' },
          ],
        },
      },
      [on(medicationsContract.addDiseaseState, params)]: { status: 201, body: PLAN.disease_states[0] },
      [on(medicationsContract.endDiseaseState, params)]: { body: PLAN.disease_states[0] },
    });
    await userEvent.type(await screen.findByTestId('condition-code'), 'hypert');
    await userEvent.click(await screen.findByRole('option', { name: /I10/ }));
    expect(screen.getByTestId('condition-code')).toHaveValue('I10');
    expect(screen.getByTestId('condition-description')).toHaveValue('Essential (primary) hypertension');
    await userEvent.click(screen.getByRole('button', { name: 'Add a disease state' }));
    expect(await screen.findByText('Disease state added')).toBeInTheDocument();
    expect(api.callsTo(on(medicationsContract.addDiseaseState, params))[0]?.body).toEqual({
      conditions: [{ code: 'I10', description: 'Essential (primary) hypertension' }],
    });

    await userEvent.click(screen.getByTestId('condition-end'));
    expect(await screen.findByText('End this disease state?')).toBeInTheDocument();
    expect(api.callsTo(on(medicationsContract.endDiseaseState, params))).toHaveLength(0);
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'End' }));
    expect(await screen.findByText('Disease state ended')).toBeInTheDocument();
    expect(api.callsTo(on(medicationsContract.endDiseaseState, params))[0]?.body).toEqual({
      disease_state_id: 40,
    });
  });

  it('shows a refused code under the code field', async () => {
    start({
      [on(medicationsContract.addDiseaseState, params)]: {
        status: 422,
        body: {
          message: 'Invalid',
          errors: { 'conditions.0.code': ['Use an ICD-10-CM code (e.g. I10, E11.9).'] },
        },
      },
      [on(catalogueContract.diagnosisCodes, program)]: { body: { data: [] } },
    });
    await userEvent.type(await screen.findByTestId('condition-code'), 'XX');
    await userEvent.type(screen.getByTestId('condition-description'), 'Something');
    await userEvent.click(screen.getByRole('button', { name: 'Add a disease state' }));
    expect(await screen.findByText('Use an ICD-10-CM code (e.g. I10, E11.9).')).toBeInTheDocument();
    expect(screen.getByTestId('condition-description')).toHaveValue('Something');
  });
});

describe('a smart inhaler regimen', () => {
  it('creates a rescue inhaler used as needed, from the patient’s midnight', async () => {
    const api = start({
      [on(medicationsContract.inhalerRegimen, { programId: 1, userId: PATIENT.id })]: {
        status: 201,
        body: { ...REGIMEN, id: 8, type: 'inhaler', name: 'Inhaler' },
      },
    });
    await userEvent.click(await screen.findByTestId('inhaler-add'));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByTestId('inhaler-save'));
    // The serial is required: nothing is sent.
    expect(await within(dialog).findByText('This field is required.')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByTestId('inhaler-serial'), 'INH-4471');
    await userEvent.click(within(dialog).getByTestId('inhaler-save'));
    expect(await screen.findByText('Inhaler regimen created')).toBeInTheDocument();
    const [call] = api.callsTo(on(medicationsContract.inhalerRegimen, { programId: 1, userId: PATIENT.id }));
    expect(call?.body).toMatchObject({
      name: 'Inhaler',
      device_serial: 'INH-4471',
      repeat: 'as_needed',
      time: [],
      num: 2,
    });
  });

  it("says 'Unable to create Inhaler Regimen' on failure and shows a refused field under it", async () => {
    start({
      [on(medicationsContract.inhalerRegimen, { programId: 1, userId: PATIENT.id })]: {
        status: 422,
        body: { message: 'Invalid', errors: { device_serial: ['This inhaler is not registered.'] } },
      },
    });
    await userEvent.click(await screen.findByTestId('inhaler-add'));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByTestId('inhaler-serial'), 'NOPE');
    await userEvent.click(within(dialog).getByTestId('inhaler-save'));
    expect(await screen.findByText('Unable to create Inhaler Regimen')).toBeInTheDocument();
    expect(within(dialog).getByText('This inhaler is not registered.')).toBeInTheDocument();
    expect(within(dialog).getByTestId('inhaler-serial')).toHaveValue('NOPE');
  });
});

describe('changing a regimen', () => {
  it('refuses a lockout longer than the gap between doses under its field, then saves the new schedule', async () => {
    const api = start({
      [on(medicationsContract.updateRegimen, { regimenId: 5 })]: { body: REGIMEN },
    });
    await userEvent.click(await screen.findByTestId('regimen-edit'));
    const dialog = await screen.findByRole('dialog');
    // The last day is shown on the patient's clock.
    expect(within(dialog).getByTestId('regimen-end')).toHaveValue('11/30/2026');
    await userEvent.type(within(dialog).getByTestId('regimen-times'), '20:00{Enter}');
    const lockout = within(dialog).getByTestId('regimen-lockout');
    await userEvent.clear(lockout);
    await userEvent.type(lockout, '800');
    await userEvent.click(within(dialog).getByTestId('regimen-save'));
    expect(
      await within(dialog).findByText('The lockout cannot be longer than the time between doses.'),
    ).toBeInTheDocument();
    expect(api.callsTo(on(medicationsContract.updateRegimen, { regimenId: 5 }))).toHaveLength(0);
    await userEvent.clear(lockout);
    await userEvent.type(lockout, '60');
    const end = within(dialog).getByTestId('regimen-end');
    await userEvent.clear(end);
    await userEvent.type(end, '2026-12-15');
    await userEvent.tab();
    await userEvent.click(within(dialog).getByTestId('regimen-save'));
    expect(await screen.findByText('Regimen updated')).toBeInTheDocument();
    expect(api.callsTo(on(medicationsContract.updateRegimen, { regimenId: 5 }))[0]?.body).toEqual({
      name: 'Lisinopril 10 mg',
      time: ['08:00', '20:00'],
      num: 1,
      lockout_time: 60,
      end_at: '2026-12-16T05:00:00.000Z',
    });
  });
});

describe('prescriptions', () => {
  const SCRIPT = {
    id: 61,
    drug_name: 'Lisinopril 10 mg',
    sig: 'One tablet by mouth every morning',
    quantity: 30,
    refills: 2,
    prescriber: 'Dr. Raman',
    written_at: '2026-11-02',
    updated_at: '2026-11-02T14:00:00.000Z',
  };

  it('adds one (a refused quantity shown under its field, nothing lost) and changes one by its id', async () => {
    let attempts = 0;
    const api = start({
      [on(medicationsContract.plan, params)]: { body: { ...PLAN, scripts: [SCRIPT] } },
      [on(medicationsContract.scripts, params)]: () => {
        attempts += 1;
        return attempts === 1
          ? {
              status: 422,
              body: { message: 'Invalid', errors: { 'scripts.0.quantity': ['At most 10000.'] } },
            }
          : { body: { data: [SCRIPT] } };
      },
    });
    const row = await screen.findByTestId('script');
    expect(row).toHaveTextContent('One tablet by mouth every morning');
    expect(row).toHaveTextContent('Qty 30 · 2 refills · Dr. Raman · 11/02/2026');

    await userEvent.click(screen.getByTestId('script-add'));
    let dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByTestId('script-drug'), 'Metformin 500 mg');
    await userEvent.type(within(dialog).getByTestId('script-quantity'), '99999');
    await userEvent.click(within(dialog).getByTestId('script-save'));
    expect(await within(dialog).findByText('At most 10000.')).toBeInTheDocument();
    expect(within(dialog).getByTestId('script-drug')).toHaveValue('Metformin 500 mg');
    await userEvent.clear(within(dialog).getByTestId('script-quantity'));
    await userEvent.type(within(dialog).getByTestId('script-quantity'), '60');
    await userEvent.click(within(dialog).getByTestId('script-save'));
    expect(await screen.findByText('Prescription saved')).toBeInTheDocument();
    expect(api.callsTo(on(medicationsContract.scripts, params))[1]?.body).toEqual({
      scripts: [
        {
          drug_name: 'Metformin 500 mg',
          sig: null,
          quantity: 60,
          refills: null,
          prescriber: null,
          written_at: null,
        },
      ],
    });

    await userEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByTestId('script-save'));
    await waitFor(() => expect(api.callsTo(on(medicationsContract.scripts, params))).toHaveLength(3));
    expect(api.callsTo(on(medicationsContract.scripts, params))[2]?.body).toMatchObject({
      scripts: [{ id: 61, drug_name: 'Lisinopril 10 mg', quantity: 30 }],
    });
  });
});

describe('a regimen on one of the patient’s dispensers', () => {
  const dispenser = {
    id: 9,
    serial: 'MD-2041',
    vendor: 'medesto',
    kind: 'dispenser' as const,
    dispenser_type: 1,
    program_id: 1,
    patient: { id: PATIENT.id, name: 'Ada Lovelace' },
    verified: true,
    connected: true,
    online: true,
    last_seen_at: null,
    last_event_type: null,
    battery: null,
    pods_loaded: null,
    firmware: null,
    provisioned_at: null,
  };

  it('is a device-order regimen; a busy dispenser (409) is said under the field, and the retry keeps the order', async () => {
    let attempts = 0;
    const api = start({
      [on(devicesContract.list)]: {
        body: { data: [dispenser], current_page: 1, last_page: 1, per_page: 100, total: 1 },
      },
      [on(medicationsContract.createRegimen, { ...params, orderId: 3 })]: () => {
        attempts += 1;
        return attempts === 1
          ? { status: 409, body: { message: 'This device already runs an active regimen for the patient.' } }
          : { status: 201, body: { ...REGIMEN, id: 6 } };
      },
    });
    const dialog = await openOrderForm();
    await userEvent.type(within(dialog).getByTestId('order-drug'), 'Metformin');
    await userEvent.click(await within(dialog).findByRole('combobox', { name: 'Dispensed by' }));
    await userEvent.click(await screen.findByRole('option', { name: 'MD-2041' }));
    await userEvent.click(within(dialog).getByTestId('order-save'));
    expect(
      await within(dialog).findByText(/This dispenser already runs an active regimen/),
    ).toBeInTheDocument();
    expect(
      api.callsTo(on(medicationsContract.createRegimen, { ...params, orderId: 3 }))[0]?.body,
    ).toMatchObject({
      type: 'medesto-device',
      device_serial: 'MD-2041',
    });
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Dispensed by' }));
    await userEvent.click(await screen.findByRole('option', { name: /No dispenser/ }));
    await userEvent.click(within(dialog).getByTestId('order-save'));
    expect(await screen.findByText('Medication ordered and scheduled')).toBeInTheDocument();
    expect(api.callsTo(on(medicationsContract.createOrder, params))).toHaveLength(1);
  });
});

describe('disease states and the regimens that treat them', () => {
  it('links regimens to a disease state, and adds one treated by a regimen', async () => {
    const api = start({
      [on(medicationsContract.linkDiseaseStateRegimens, params)]: {
        body: { ...PLAN.disease_states[0], regimen_ids: [5] },
      },
      [on(medicationsContract.addDiseaseState, params)]: { status: 201, body: PLAN.disease_states[0] },
      [on(catalogueContract.diagnosisCodes, program)]: { body: { data: [] } },
    });
    await userEvent.click(await screen.findByTestId('condition-link'));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Treated by' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Lisinopril 10 mg' }));
    await userEvent.click(within(dialog).getByTestId('condition-regimens-save'));
    expect(await screen.findByText('Regimens linked')).toBeInTheDocument();
    expect(api.callsTo(on(medicationsContract.linkDiseaseStateRegimens, params))[0]?.body).toEqual({
      disease_state_id: 40,
      regimen_ids: [5],
    });

    await userEvent.type(screen.getByTestId('condition-code'), 'I10');
    await userEvent.type(screen.getByTestId('condition-description'), 'Essential (primary) hypertension');
    await userEvent.click(screen.getByRole('combobox', { name: 'Treated by' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Lisinopril 10 mg' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add a disease state' }));
    expect(await screen.findByText('Disease state added')).toBeInTheDocument();
    expect(
      api.callsTo(on(medicationsContract.addDiseaseState, params))[0]?.url.searchParams.get('regimen_id'),
    ).toBe('5');
  });
});

describe('a pharma user, who reads the plan', () => {
  it('meets no control that can only fail: labels can still be printed', async () => {
    const user = makeUser({ roles: [{ name: 'pharma', program_id: 1, enterprise_id: null }] });
    scopeStore.set({
      userId: user.id,
      programId: 1,
      program: user.programs[0]!,
      enterprise: null,
      enterpriseScope: false,
    });
    try {
      start({ [on(userContract.me)]: { body: user } });
      const regimen = await screen.findByTestId('regimen');
      await waitFor(() => expect(within(regimen).queryByTestId('record-dose')).toBeNull());
      expect(within(regimen).getByRole('button', { name: 'Print labels' })).toBeEnabled();
      expect(within(regimen).queryByRole('button', { name: 'Complete' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Order a medication' })).toBeNull();
      expect(screen.queryByTestId('inhaler-add')).toBeNull();
      expect(screen.queryByTestId('script-add')).toBeNull();
      expect(screen.queryByTestId('condition-code')).toBeNull();
      expect(screen.queryByTestId('condition-delete')).toBeNull();
    } finally {
      scopeStore.set(null);
    }
  });
});

describe('adding pods', () => {
  it('previews the barcodes the pods will get, and refuses a bad prefix under its field', async () => {
    const api = start({
      [on(medicationsContract.podCodes, { programId: 1, userId: PATIENT.id, regimenId: 5 })]: (request) => ({
        body: {
          codes: Array.from(
            { length: (request.body as { num: number }).num },
            (_, i) => `${(request.body as { prefix: string }).prefix}000010${i}`,
          ),
        },
      }),
      [on(medicationsContract.createPods, { ...params, regimenId: 5 })]: {
        status: 201,
        body: { data: REGIMEN.pods },
      },
    });
    const regimen = await screen.findByTestId('regimen');
    await userEvent.click(within(regimen).getByRole('button', { name: 'Add pods' }));
    const dialog = await screen.findByRole('dialog');
    const count = within(dialog).getByLabelText('Number of pods');
    await userEvent.clear(count);
    await userEvent.type(count, '3');
    await waitFor(() =>
      expect(within(dialog).getByTestId('pod-codes')).toHaveTextContent(
        'The 3 pods get the barcodes CD0000100 to CD0000102.',
      ),
    );
    const prefix = within(dialog).getByTestId('pod-prefix');
    await userEvent.clear(prefix);
    await userEvent.type(prefix, 'C-D');
    await userEvent.click(within(dialog).getByTestId('pods-save'));
    expect(await within(dialog).findByText('Use 1 to 8 letters or digits.')).toBeInTheDocument();
    expect(api.callsTo(on(medicationsContract.createPods, { ...params, regimenId: 5 }))).toHaveLength(0);
    await userEvent.clear(prefix);
    await userEvent.type(prefix, 'RX');
    await userEvent.click(within(dialog).getByTestId('pods-save'));
    expect(await screen.findByText('1 pod added')).toBeInTheDocument();
    expect(api.callsTo(on(medicationsContract.createPods, { ...params, regimenId: 5 }))[0]?.body).toEqual({
      prefix: 'RX',
      original_servings: 28,
      servings_remaining: 28,
      num: 3,
    });
  });

  it('pods of a dose of several regimens are shared with the chosen one (pods/link) and say so', async () => {
    const second = { ...REGIMEN, id: 8, name: 'Metoprolol 25 mg', pods: [] };
    const first = {
      ...REGIMEN,
      pods: [
        ...REGIMEN.pods,
        { ...REGIMEN.pods[0], id: 72, num: 2, barcode: 'CD0000722', linked_regimen_id: 8 },
      ],
    };
    const api = start({
      [on(medicationsContract.plan, params)]: { body: { ...PLAN, regimens: [first, second] } },
      [on(medicationsContract.podCodes, { programId: 1, userId: PATIENT.id, regimenId: 5 })]: {
        body: { codes: ['CD0000730'] },
      },
      [on(medicationsContract.linkPods, { programId: 1, userId: PATIENT.id })]: {
        body: { message: 'Pods linked', data: [{ ...REGIMEN.pods[0], id: 73, linked_regimen_id: 8 }] },
      },
    });
    const [lisinopril, metoprolol] = await screen.findAllByTestId('regimen');
    if (!lisinopril || !metoprolol) throw new Error('no regimens');
    await userEvent.click(within(lisinopril).getByTestId('pods-toggle'));
    expect(within(lisinopril).getByTestId('pod-shared')).toHaveTextContent('also Metoprolol 25 mg');
    // The other regimen lists the shared pod too.
    expect(metoprolol).toHaveTextContent('1 pod · 12 servings left');
    await userEvent.click(within(metoprolol).getByTestId('pods-toggle'));
    expect(within(metoprolol).getByTestId('pod-shared')).toHaveTextContent('shared from Lisinopril 10 mg');
    await userEvent.click(within(lisinopril).getByRole('button', { name: 'Add pods' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByLabelText(/Also for/, { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Metoprolol 25 mg' }));
    await userEvent.click(within(dialog).getByTestId('pods-save'));
    expect(await screen.findByText('1 pod added, shared with Metoprolol 25 mg')).toBeInTheDocument();
    expect(
      api.callsTo(on(medicationsContract.linkPods, { programId: 1, userId: PATIENT.id }))[0]?.body,
    ).toEqual({
      prefix: 'CD',
      original_servings: 28,
      servings_remaining: 28,
      num: 1,
      regimen: 5,
      linked_regimen: 8,
    });
    expect(api.callsTo(on(medicationsContract.createPods, { ...params, regimenId: 5 }))).toHaveLength(0);
  });
});
