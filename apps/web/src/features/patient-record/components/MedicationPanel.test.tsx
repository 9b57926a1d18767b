import {
  type MedicationPlan,
  medicationsContract,
  type PatientRecord,
  userContract,
} from '@caredeck/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { i18n, loadLanguage } from '../../../shared/i18n';
import { mockFetch, on } from '../../../test/fetchMock';
import { makeUser } from '../../../test/fixtures';
import { renderWithProviders, signInForTest } from '../../../test/render';
import { MedicationPanel } from './MedicationPanel';

const PATIENT = { id: 11, name: 'Ada Lovelace', time_zone: 'America/New_York' } as PatientRecord;
const params = { programId: 1, id: PATIENT.id };

const POD = {
  regimen_id: 5,
  prefix: 'CD',
  num: 1,
  original_servings: 28,
  linked_regimen_id: null,
  created_at: '2026-11-01T14:00:00.000Z',
};

const PLAN: MedicationPlan = {
  regimens: [
    {
      id: 5,
      patient_id: PATIENT.id,
      order_id: 3,
      parent_id: null,
      type: 'medication',
      name: 'Metformin 500 mg',
      repeat: 'daily',
      interval: 1,
      timeCascade: false,
      billable: true,
      lockout_time: 120,
      time: ['08:00', '20:00'],
      num: 1,
      created_by: null,
      scheduled_at: '2026-11-01T05:00:00.000Z',
      end_at: null,
      multi_pod: false,
      unlock_before: 30,
      device_serial: null,
      status: 'active',
      completed_at: null,
      pods: [
        { ...POD, id: 71, barcode: 'CD-000071', servings_remaining: 12 },
        { ...POD, id: 72, barcode: 'CD-000072', num: 2, servings_remaining: 0 },
      ],
    },
  ],
  orders: [
    {
      id: 3,
      patient_id: PATIENT.id,
      regimen_id: 5,
      drug_name: 'Metformin',
      strength: '500 mg',
      route: 'oral',
      form: 'tablet',
      quantity: 60,
      refills: 1,
      instructions: null,
      prescriber: { id: 2, name: 'Priya Raman' },
      status: 'open',
      created_at: '2026-11-01T14:00:00.000Z',
    },
  ],
  scripts: [],
  disease_states: [],
  recent_usages: [
    {
      id: 900,
      regimen_id: 5,
      pod_id: 71,
      taken_at: '2026-11-26T13:05:00.000Z',
      servings: 1,
      note: 'Told by phone',
      recorded_by: { id: 3, name: 'Carlos Diaz' },
      kind: 'taken',
      source: 'manual',
    },
    {
      id: 899,
      regimen_id: 5,
      pod_id: null,
      taken_at: '2026-11-26T01:02:00.000Z',
      servings: 1,
      note: null,
      recorded_by: null,
      kind: 'taken',
      source: 'dispenser',
    },
  ],
};

function start(plan: MedicationPlan = PLAN) {
  signInForTest();
  const api = mockFetch({
    [on(userContract.me)]: { body: makeUser() },
    [on(medicationsContract.plan, params)]: { body: plan },
    [on(medicationsContract.deleteDiseaseState, params)]: { status: 204 },
    [on(medicationsContract.recordUsage, params)]: (request) => ({
      status: 201,
      body: { ...PLAN.recent_usages[0], ...(request.body as object), id: 901 },
    }),
    [on(medicationsContract.deleteUsage, { ...params, usageId: 900 })]: { status: 204 },
  });
  renderWithProviders(
    <MemoryRouter>
      <MedicationPanel patient={PATIENT} programId={1} />
    </MemoryRouter>,
  );
  return api;
}

describe('the medication tab', () => {
  it('shows the orders with their regimen, and the latest doses with who recorded them', async () => {
    start();
    const order = await screen.findByTestId('medication-order');
    expect(order).toHaveTextContent('Metformin 500 mg');
    expect(order).toHaveTextContent('tablet · oral');
    expect(order).toHaveTextContent('60 · 1 refill');
    expect(order).toHaveTextContent('Priya Raman');
    expect(order).toHaveTextContent('Open');
    const [manual, device] = screen.getAllByTestId('recent-dose');
    // Times on the patient's clock (New York).
    expect(manual).toHaveTextContent('11/26/2026 08:05 AM');
    expect(manual).toHaveTextContent('By hand, Carlos Diaz');
    expect(manual).toHaveTextContent('CD-000071');
    expect(device).toHaveTextContent('11/25/2026 08:02 PM');
    expect(device).toHaveTextContent('Dispenser');
    // Only a dose recorded by hand can be deleted.
    expect(within(device as HTMLElement).queryByTestId('dose-delete')).toBeNull();
  });

  it("records a dose taken at a time on the patient's clock, from a pod with servings left", async () => {
    const api = start();
    await userEvent.click(await screen.findByTestId('record-dose'));
    const dialog = await screen.findByRole('dialog');
    const date = within(dialog).getByLabelText(/Date taken/);
    await userEvent.clear(date);
    await userEvent.type(date, '2026-11-26');
    await userEvent.tab();
    const time = within(dialog).getByLabelText(/Time taken/);
    await userEvent.clear(time);
    await userEvent.type(time, '07:30');
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'From pod' }));
    // The empty pod is not offered.
    expect(screen.queryByRole('option', { name: /CD-000072/ })).toBeNull();
    await userEvent.click(screen.getByRole('option', { name: 'CD-000071 · 12 servings left' }));
    await userEvent.click(within(dialog).getByTestId('dose-save'));
    expect(await screen.findByText('Dose recorded')).toBeInTheDocument();
    const [call] = api.callsTo(on(medicationsContract.recordUsage, params));
    expect(call?.body).toEqual({
      regimen_id: 5,
      pod_id: 71,
      // 07:30 in New York in November is 12:30 UTC.
      taken_at: '2026-11-26T12:30:00.000Z',
      servings: 1,
      note: null,
    });
  });

  it('refuses a dose in the future without calling the server', async () => {
    const api = start();
    await userEvent.click(await screen.findByTestId('record-dose'));
    const dialog = await screen.findByRole('dialog');
    const date = within(dialog).getByLabelText(/Date taken/);
    await userEvent.clear(date);
    await userEvent.type(date, '2099-01-01');
    await userEvent.tab();
    await userEvent.click(within(dialog).getByTestId('dose-save'));
    expect(await within(dialog).findByText('A dose cannot be recorded in the future.')).toBeInTheDocument();
    expect(api.callsTo(on(medicationsContract.recordUsage, params))).toHaveLength(0);
  });

  it('deletes a dose recorded by hand only after a confirmation', async () => {
    const api = start();
    const [manual] = await screen.findAllByTestId('recent-dose');
    await userEvent.click(within(manual as HTMLElement).getByTestId('dose-delete'));
    expect(await screen.findByText('Delete this dose record?')).toBeInTheDocument();
    expect(api.callsTo(on(medicationsContract.deleteUsage, { ...params, usageId: 900 }))).toHaveLength(0);
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Dose record deleted')).toBeInTheDocument();
    expect(api.callsTo(on(medicationsContract.deleteUsage, { ...params, usageId: 900 }))).toHaveLength(1);
  });

  it('deletes a disease state only after a confirmation', async () => {
    const api = start({
      ...PLAN,
      disease_states: [
        {
          id: 40,
          conditions: [{ code: 'E11.9', description: 'Type 2 diabetes' }],
          regimen_ids: [5],
          script_id: null,
          started_at: '2026-11-01T14:00:00.000Z',
          ended_at: null,
        },
      ],
    });
    await userEvent.click(await screen.findByTestId('condition-delete'));
    expect(await screen.findByText('Delete this disease state?')).toBeInTheDocument();
    expect(api.callsTo(on(medicationsContract.deleteDiseaseState, params))).toHaveLength(0);
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Disease state deleted')).toBeInTheDocument();
    expect(api.callsTo(on(medicationsContract.deleteDiseaseState, params))[0]?.body).toEqual({
      disease_state_id: 40,
    });
  });

  it("writes a dose's time in German with the month's name, so 11/26 is not read as a month 26", async () => {
    await loadLanguage('de');
    await i18n.changeLanguage('de');
    try {
      start();
      const [manual] = await screen.findAllByTestId('recent-dose');
      // 13:05 UTC is 08:05 in New York.
      expect(manual).toHaveTextContent('26. Nov. 2026, 08:05');
      expect(await screen.findByTestId('medication-order')).toHaveTextContent('1. Nov. 2026');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
