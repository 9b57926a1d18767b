import {
  catalogueContract,
  type MedRecItem,
  medRecContract,
  type PatientRecord,
  patientRecordContract,
  userContract,
} from '@caredeck/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockHandler, type MockReply, mockFetch, on } from '../../../test/fetchMock';
import { makeUser } from '../../../test/fixtures';
import { renderWithProviders, signInForTest } from '../../../test/render';
import { scopeStore } from '../../tenancy/scope';
import { MedRecPage } from './MedRecPage';

const ITEM: MedRecItem = {
  id: 31,
  name: 'Atorvastatin',
  strength: '40 mg',
  dose: '1 tablet',
  frequency: 'once daily',
  route: 'oral',
  indication: null,
  prescriber: null,
  start_date: null,
  last_taken: null,
  source: 'Pill bottle',
  notes: null,
  archived: false,
  updated_at: '2026-11-20T14:00:00.000Z',
  updated_by: null,
};

function start(patientId: number, extra: Record<string, MockHandler | MockReply> = {}) {
  signInForTest();
  const user = makeUser();
  scopeStore.set({
    userId: user.id,
    programId: 1,
    program: user.programs[0]!,
    enterprise: null,
    enterpriseScope: false,
  });
  const api = mockFetch({
    [on(userContract.me)]: { body: user },
    [on(patientRecordContract.get, { programId: 1, id: 11 })]: {
      body: {
        id: 11,
        program_id: 1,
        programs: [{ id: 1, name: 'Cardiac care' }],
        mrn: null,
        first_name: 'Ada',
        middle_name: null,
        last_name: 'Lovelace',
        name: 'Ada Lovelace',
        dob: null,
        age: null,
        sex: 'female',
        race: null,
        ethnicity: null,
        income: null,
        language: null,
        email: null,
        phone_number: null,
        address_line1: null,
        address_line2: null,
        city: null,
        state: null,
        zip: null,
        time_zone: 'America/New_York',
        physician: null,
        assigned_admin: null,
        consent_at: null,
        consent_method: null,
        status: 'active',
        active: true,
        deactivated_at: null,
        notification_settings: { sms: true, email: true, push: true, voice: false },
        has_app_password: false,
        follow_up: null,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      } satisfies PatientRecord,
    },
    [on(medRecContract.list, { patientId: 11 })]: {
      body: { data: [ITEM], method: null, reconciled_at: null, reconciled_by: null },
    },
    ...extra,
  });
  renderWithProviders(
    <MemoryRouter initialEntries={[`/patient/${patientId}/medication/details`]}>
      <Routes>
        <Route path="/patient/:patientId/medication/details" element={<MedRecPage />} />
      </Routes>
    </MemoryRouter>,
  );
  return api;
}

afterEach(() => scopeStore.set(null));

describe('medication reconciliation', () => {
  it("says another program's patient does not exist, instead of loading forever", async () => {
    start(99, {
      [on(patientRecordContract.get, { programId: 1, id: 99 })]: {
        status: 404,
        body: { message: 'Not Found' },
      },
      [on(medRecContract.list, { patientId: 99 })]: { status: 404, body: { message: 'Not Found' } },
    });
    expect(
      await screen.findByText('This patient does not exist in the current program.'),
    ).toBeInTheDocument();
  });

  it('changes one field with the key/value update, and several with the whole update', async () => {
    const api = start(11, {
      [on(medRecContract.updateInput, { patientId: 11, medicationId: 31 })]: {
        body: { message: 'Medication Updated.', data: ITEM },
      },
      [on(medRecContract.update, { patientId: 11, medicationId: 31 })]: {
        body: { message: 'Medication Updated.', data: ITEM },
      },
    });
    const list = await screen.findByTestId('med-rec-list');
    await userEvent.click(within(list).getByRole('button', { name: 'Edit' }));
    let dialog = await screen.findByRole('dialog');
    const frequency = within(dialog).getByTestId('med-rec-frequency');
    await userEvent.clear(frequency);
    await userEvent.type(frequency, 'twice daily');
    await userEvent.click(within(dialog).getByTestId('med-rec-save'));
    expect(await screen.findByText('Medication Updated.')).toBeInTheDocument();
    expect(api.callsTo(on(medRecContract.updateInput, { patientId: 11, medicationId: 31 }))[0]?.body).toEqual(
      {
        key: 'frequency',
        value: 'twice daily',
      },
    );

    await userEvent.click(within(list).getByRole('button', { name: 'Edit' }));
    dialog = await screen.findByRole('dialog');
    await userEvent.clear(within(dialog).getByTestId('med-rec-frequency'));
    await userEvent.type(within(dialog).getByTestId('med-rec-frequency'), 'at bedtime');
    await userEvent.clear(within(dialog).getByTestId('med-rec-dose'));
    await userEvent.type(within(dialog).getByTestId('med-rec-dose'), '2 tablets');
    await userEvent.click(within(dialog).getByTestId('med-rec-save'));
    await screen.findByTestId('med-rec-list');
    await waitFor(() =>
      expect(api.callsTo(on(medRecContract.update, { patientId: 11, medicationId: 31 }))).toHaveLength(1),
    );
    expect(api.callsTo(on(medRecContract.updateInput, { patientId: 11, medicationId: 31 }))).toHaveLength(1);
  });

  it('offers the drug catalogue for the name, and the drug’s strengths', async () => {
    const api = start(11, {
      [on(catalogueContract.drugs, { programId: 1 })]: {
        body: { data: [{ id: 3, name: 'atorvastatin', brands: ['Lipitor'] }] },
      },
      [on(catalogueContract.strengths, { programId: 1, q: 'Atorvastatin' })]: {
        body: { data: ['10 mg', '20 mg', '40 mg', '80 mg'] },
      },
      [on(medRecContract.store, { patientId: 11 })]: {
        status: 201,
        body: { message: 'A New Medication has been Added.', data: ITEM },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Add a medication' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByTestId('med-rec-name'), 'atorv');
    await userEvent.click(await screen.findByRole('option', { name: 'Atorvastatin' }));
    await userEvent.click(within(dialog).getByTestId('med-rec-strength'));
    await userEvent.click(await screen.findByRole('option', { name: '40 mg' }));
    await userEvent.click(within(dialog).getByTestId('med-rec-save'));
    expect(await screen.findByText('A New Medication has been Added.')).toBeInTheDocument();
    expect(api.callsTo(on(medRecContract.store, { patientId: 11 }))[0]?.body).toMatchObject({
      name: 'Atorvastatin',
      strength: '40 mg',
    });
  });
});
