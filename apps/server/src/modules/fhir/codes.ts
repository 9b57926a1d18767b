/**
 * Code systems and identifier systems of CareDeck's FHIR answers (docs/fhir.md has the table).
 * Identifier systems are URNs of CareDeck's own: stable whatever host serves them, and scoped to the program
 * for the MRN (an MRN is unique within its program only).
 */
export const LOINC = 'http://loinc.org';
export const UCUM = 'http://unitsofmeasure.org';
export const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
export const IDENTIFIER_TYPE = 'http://terminology.hl7.org/CodeSystem/v2-0203';
export const US_CORE = 'http://hl7.org/fhir/us/core/StructureDefinition';
export const FHIR_PROFILE = 'http://hl7.org/fhir/StructureDefinition';

export const SYSTEMS = {
  patientId: 'urn:caredeck:patient',
  staffId: 'urn:caredeck:staff',
  deviceSerial: 'urn:caredeck:device-serial',
  deviceKind: 'urn:caredeck:device-kind',
  programId: 'urn:caredeck:program',
  enterpriseId: 'urn:caredeck:enterprise',
} as const;

/** The MRN's identifier system: one per program (`urn:caredeck:program:12:mrn`). */
export function mrnSystem(programId: number): string {
  return `urn:caredeck:program:${programId}:mrn`;
}

/** The program of an MRN system, or null when the text is not one. */
export function programOfMrnSystem(system: string): number | null {
  const m = /^urn:caredeck:program:([1-9][0-9]{0,15}):mrn$/.exec(system);
  return m ? Number(m[1]) : null;
}

export type ObservationCategory = 'vital-signs' | 'activity' | 'laboratory';

export type MeasurementCoding = {
  /** CareDeck's measurement type (measurements.type). */
  type: string;
  category: ObservationCategory;
  /** LOINC codes of Observation.code, the first the primary one. */
  codes: { code: string; display: string }[];
  /** The UCUM unit of the value (the stored unit is always this one: MEASUREMENT_UNITS). */
  unit: { code: string; display: string };
  /** Profiles claimed in meta.profile: the base FHIR vital-signs profile and US Core's. */
  profiles: string[];
};

/**
 * CareDeck's measurement types as FHIR Observations. Blood pressure is one panel (85354-9) built from the
 * systolic row and the diastolic row of the same reading; `diastolic` has no Observation of its own and
 * `active_minutes` is not mapped (no LOINC code agreed for it yet: docs/fhir.md).
 */
export const MEASUREMENT_CODINGS: readonly MeasurementCoding[] = [
  {
    type: 'systolic',
    category: 'vital-signs',
    codes: [{ code: '85354-9', display: 'Blood pressure panel with all children optional' }],
    unit: { code: 'mm[Hg]', display: 'mmHg' },
    profiles: [`${FHIR_PROFILE}/bp`, `${US_CORE}/us-core-blood-pressure`],
  },
  {
    type: 'pulse',
    category: 'vital-signs',
    codes: [{ code: '8867-4', display: 'Heart rate' }],
    unit: { code: '/min', display: 'beats/minute' },
    profiles: [`${FHIR_PROFILE}/heartrate`, `${US_CORE}/us-core-heart-rate`],
  },
  {
    type: 'oxygen',
    category: 'vital-signs',
    codes: [
      { code: '59408-5', display: 'Oxygen saturation in Arterial blood by Pulse oximetry' },
      { code: '2708-6', display: 'Oxygen saturation in Arterial blood' },
    ],
    unit: { code: '%', display: '%' },
    profiles: [`${FHIR_PROFILE}/oxygensat`, `${US_CORE}/us-core-pulse-oximetry`],
  },
  {
    type: 'weight',
    category: 'vital-signs',
    codes: [{ code: '29463-7', display: 'Body weight' }],
    unit: { code: 'kg', display: 'kg' },
    profiles: [`${FHIR_PROFILE}/bodyweight`, `${US_CORE}/us-core-body-weight`],
  },
  {
    type: 'temperature',
    category: 'vital-signs',
    codes: [{ code: '8310-5', display: 'Body temperature' }],
    unit: { code: 'Cel', display: '°C' },
    profiles: [`${FHIR_PROFILE}/bodytemp`, `${US_CORE}/us-core-body-temperature`],
  },
  {
    type: 'glucose',
    category: 'laboratory',
    codes: [{ code: '2339-0', display: 'Glucose [Mass/volume] in Blood' }],
    unit: { code: 'mg/dL', display: 'mg/dL' },
    profiles: [],
  },
  {
    type: 'steps',
    category: 'activity',
    codes: [{ code: '41950-7', display: 'Number of steps in 24 hour Measured' }],
    unit: { code: '{steps}', display: 'steps' },
    profiles: [],
  },
  {
    type: 'sleep',
    category: 'activity',
    codes: [{ code: '93832-4', display: 'Sleep duration' }],
    unit: { code: 'min', display: 'min' },
    profiles: [],
  },
];

export const BP_COMPONENTS = {
  systolic: { code: '8480-6', display: 'Systolic blood pressure' },
  diastolic: { code: '8462-4', display: 'Diastolic blood pressure' },
} as const;

export const CODING_OF_TYPE = new Map(MEASUREMENT_CODINGS.map((c) => [c.type, c]));
export const MAPPED_TYPES = MEASUREMENT_CODINGS.map((c) => c.type);

/**
 * What a `code` token (`http://loinc.org|8867-4`, `8867-4`) selects: measurement types, and for blood pressure
 * whether the reading is a panel (85354-9: a diastolic partner), alone (8480-6 without one) or either (8480-6
 * and 8462-4 also find the panels that hold them as components). Nothing for other systems.
 */
export function selectionOfCode(
  system: string | null | undefined,
  code: string,
): { type: string; panel?: boolean } | null {
  if (system !== undefined && system !== LOINC) return null;
  if (code === '85354-9') return { type: 'systolic', panel: true };
  if (code === BP_COMPONENTS.diastolic.code) return { type: 'systolic', panel: true };
  if (code === BP_COMPONENTS.systolic.code) return { type: 'systolic' };
  const coding = MEASUREMENT_CODINGS.find(
    (c) => c.type !== 'systolic' && c.codes.some((x) => x.code === code),
  );
  return coding ? { type: coding.type } : null;
}

/** The measurement types of a `category` token (`vital-signs`, `activity`, `laboratory`). */
export function typesOfCategory(system: string | null | undefined, code: string): string[] {
  if (system !== undefined && system !== OBSERVATION_CATEGORY) return [];
  return MEASUREMENT_CODINGS.filter((c) => c.category === code).map((c) => c.type);
}

const CATEGORY_DISPLAY: Record<ObservationCategory, string> = {
  'vital-signs': 'Vital Signs',
  activity: 'Activity',
  laboratory: 'Laboratory',
};

export function categoryConcept(category: ObservationCategory) {
  return {
    coding: [{ system: OBSERVATION_CATEGORY, code: category, display: CATEGORY_DISPLAY[category] }],
    text: CATEGORY_DISPLAY[category],
  };
}

/** Device kinds in words (Device.type): CareDeck's own code system, no SNOMED mapping yet (docs/fhir.md). */
export const DEVICE_KIND_DISPLAY: Record<string, string> = {
  dispenser: 'Smart medication dispenser',
  inhaler: 'Connected inhaler',
  bp_cuff: 'Blood pressure cuff',
  pulse_oximeter: 'Pulse oximeter',
  scale: 'Weighing scale',
  glucometer: 'Blood glucose meter',
  wearable: 'Wearable activity tracker',
  nfc_reader: 'NFC reader',
};
