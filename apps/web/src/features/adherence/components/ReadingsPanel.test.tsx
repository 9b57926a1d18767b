import { dataViewsContract, type GroupedMeasurements, usageViewsContract } from '@caredeck/contracts';
import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { daysBefore } from '../../../shared/ui/period';
import { mockFetch, on } from '../../../test/fetchMock';
import { renderWithProviders, signInForTest } from '../../../test/render';
import { todayIn } from './AdherencePanel';
import { ReadingsPanel } from './ReadingsPanel';

const end = todayIn('UTC');
const start = daysBefore(end, 29);
const bucket = (at: string, min: number, mean: number, max: number) => ({
  value: mean,
  min,
  max,
  count: 15,
  measured_at: `${end}T${at}:00.000Z`,
});

const answer: GroupedMeasurements = {
  data: {
    pulse: [bucket('10:00', 60, 89.5, 119), bucket('10:15', 62, 70, 80), bucket('10:30', 58, 65, 71)],
    systolic: [{ value: 128, measured_at: `${end}T08:00:00.000Z` }],
    diastolic: [],
    oxygen: [],
    glucose: [],
    weight: [],
  },
  units: { pulse: 'bpm', systolic: 'mmHg' },
  series: {
    pulse: { readings: 43_200, downsampled: true, bucket_seconds: 900 },
    systolic: { readings: 1, downsampled: false, bucket_seconds: null },
  },
};

describe('ReadingsPanel', () => {
  it('draws a downsampled series as a mean line in a min–max band, labelled with the bucket width', async () => {
    signInForTest();
    mockFetch({
      [on(dataViewsContract.measurementsGrouped, { programId: 1, id: 7, start, end })]: { body: answer },
      [on(usageViewsContract.inhalerUsages, { programId: 1, userId: 7, start, end })]: {
        body: { start, end, time_zone: 'UTC', data: [], data_total: 0, daily: [] },
      },
    });
    renderWithProviders(
      <MemoryRouter>
        <ReadingsPanel patientId={7} programId={1} timeZone="UTC" />
      </MemoryRouter>,
    );

    const pulse = await screen.findByTestId('chart-pulse');
    expect(
      within(pulse).getByText('Each point: 15-minute average; the band spans min–max'),
    ).toBeInTheDocument();
    const band = within(pulse).getByTestId('min-max-band').getAttribute('d') ?? '';
    // Three maxima forward, three minima back: one closed band.
    expect(band.match(/[ML]/g)).toHaveLength(6);
    expect(band.endsWith('Z')).toBe(true);
    expect(within(pulse).getByTestId('mean-line')).toBeInTheDocument();
    const tips = [...pulse.querySelectorAll('circle title')].map((n) => n.textContent);
    expect(tips).toHaveLength(3);
    expect(tips[0]).toMatch(/10:00 AM: mean 89\.5, min 60, max 119 bpm \(15 readings\)$/);

    // A series of few readings keeps its dots and has no bucket label.
    const systolic = screen.getByTestId('chart-systolic');
    expect(within(systolic).queryByTestId('min-max-band')).toBeNull();
    expect(within(systolic).queryByTestId('bucket-width')).toBeNull();
    expect(systolic.querySelector('circle title')?.textContent).toMatch(/08:00 AM: 128 mmHg$/);
  });
});
