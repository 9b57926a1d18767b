import { normalisePhone } from '@caredeck/contracts';
import type { Faker } from '@faker-js/faker';
import type { PatientInput } from '../modules/patients/patients.factories';

/** The moment demo and benchmark data are generated relative to, so every run makes the same rows. */
export const REFERENCE_TIME = new Date('2026-11-01T12:00:00Z').getTime();

const STATUSES = [
  'active',
  'active',
  'active',
  'active',
  'active',
  'active',
  'pending',
  'inactive',
  'discharged',
] as const;
const RACES = [
  'White',
  'Black or African American',
  'Asian',
  'American Indian or Alaska Native',
  'Native Hawaiian or Other Pacific Islander',
  'Other',
];
const ETHNICITIES = ['Hispanic or Latino', 'Not Hispanic or Latino'];

/**
 * Realistic patients for one program (names matching sex, adult ages, US places, mostly active,
 * most assigned to one of the given staff), drawn from the caller's seeded faker.
 */
export function fakePatients(
  faker: Faker,
  programId: number,
  count: number,
  staffIds: number[],
): PatientInput[] {
  return Array.from({ length: count }, () => {
    const sex = faker.helpers.weightedArrayElement([
      { value: 'female' as const, weight: 50 },
      { value: 'male' as const, weight: 47 },
      { value: 'other' as const, weight: 2 },
      { value: 'unknown' as const, weight: 1 },
    ]);
    const firstName = faker.person.firstName(sex === 'female' || sex === 'male' ? sex : undefined);
    const lastName = faker.person.lastName();
    const dob = faker.date.birthdate({ mode: 'age', min: 19, max: 94, refDate: new Date(REFERENCE_TIME) });
    return {
      programId,
      firstName,
      lastName,
      email: faker.internet.email({ firstName, lastName, provider: 'example.com' }).toLowerCase(),
      // Stored as the API stores numbers (E.164), so replies from the phone find the patient.
      phoneNumber: normalisePhone(faker.phone.number({ style: 'national' })),
      dob: dob.toISOString().slice(0, 10),
      sex,
      race: faker.helpers.arrayElement(RACES),
      ethnicity: faker.helpers.arrayElement(ETHNICITIES),
      state: faker.location.state({ abbreviated: true }),
      city: faker.location.city(),
      status: faker.helpers.arrayElement(STATUSES),
      assignedAdminId:
        staffIds.length && faker.datatype.boolean(0.85) ? faker.helpers.arrayElement(staffIds) : null,
      // Spread over 18 months to the second, so created_at sorting has few ties.
      createdAt: new Date(REFERENCE_TIME - faker.number.int({ min: 0, max: 540 * 86_400 }) * 1000),
    };
  });
}
