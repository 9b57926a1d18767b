import type { OrderFormField, ProgramType, RecipientKind } from '@caredeck/contracts';

/** A template CareDeck ships; ids are fixed (forms point at them), so a template is never renumbered. */
export type ShippedTemplate = {
  id: number;
  code: string;
  name: string;
  description: string;
  recipient_kind: RecipientKind;
  program_types: readonly ProgramType[];
  fields: OrderFormField[];
};

const ICD10 = {
  pattern: '^[A-TV-Za-tv-z][0-9][0-9ABab](\\.[0-9A-Za-z]{1,4})?$',
  pattern_message: 'Use an ICD-10-CM code like I10 or E11.9.',
};

/** The record's fields, shared by the templates (the record supplies them; staff fill them only when it lacks one). */
const patient = {
  name: { key: 'patient_name', label: 'Patient name', source: 'patient', type: 'text', required: true },
  dob: { key: 'date_of_birth', label: 'Date of birth', source: 'patient', type: 'date', required: true },
  sex: { key: 'sex', label: 'Sex', source: 'patient', type: 'text', required: false },
  address: {
    key: 'address',
    label: 'Address',
    source: 'patient',
    type: 'textarea',
    required: true,
    hint: 'Street, city, state and ZIP code.',
  },
  phone: { key: 'phone', label: 'Phone', source: 'patient', type: 'text', required: false },
  mrn: { key: 'mrn', label: 'Medical record number', source: 'patient', type: 'text', required: false },
  physician: {
    key: 'physician',
    label: 'Ordering physician',
    source: 'patient',
    type: 'text',
    required: true,
  },
  medications: {
    key: 'medications',
    label: 'Current medications',
    source: 'patient',
    type: 'list',
    required: false,
  },
  devices: { key: 'devices', label: 'Devices in use', source: 'patient', type: 'list', required: false },
} satisfies Record<string, OrderFormField>;

/** The catalogue (ADR 044): what a monitoring, pharmacy or pharma program sends on a patient's behalf. */
export const ORDER_FORM_CATALOGUE: ShippedTemplate[] = [
  {
    id: 1,
    code: 'rpm_device_order',
    name: 'RPM device order (DME)',
    description:
      'Orders a remote-monitoring device for the patient from the durable medical equipment supplier.',
    recipient_kind: 'supplier',
    program_types: ['monitoring'],
    fields: [
      patient.name,
      patient.dob,
      patient.address,
      patient.phone,
      patient.mrn,
      patient.physician,
      patient.devices,
      {
        key: 'device_kind',
        label: 'Device',
        source: 'staff',
        type: 'select',
        required: true,
        options: [
          'Blood pressure cuff',
          'Weight scale',
          'Pulse oximeter',
          'Glucometer',
          'Medication dispenser',
        ],
      },
      {
        key: 'diagnosis_code',
        label: 'Diagnosis (ICD-10-CM)',
        source: 'staff',
        type: 'text',
        required: true,
        ...ICD10,
      },
      { key: 'quantity', label: 'Quantity', source: 'staff', type: 'number', required: true, min: 1, max: 5 },
      {
        key: 'notes',
        label: 'Notes for the supplier',
        source: 'staff',
        type: 'textarea',
        required: false,
      },
    ],
  },
  {
    id: 2,
    code: 'refill_authorization',
    name: 'Prescription refill authorization request',
    description: "Asks the prescriber to authorize refills of one of the patient's medications.",
    recipient_kind: 'prescriber',
    program_types: ['monitoring', 'pharmacy', 'pharma'],
    fields: [
      patient.name,
      patient.dob,
      patient.mrn,
      patient.physician,
      patient.medications,
      { key: 'medication', label: 'Medication and strength', source: 'staff', type: 'text', required: true },
      {
        key: 'quantity',
        label: 'Quantity per fill',
        source: 'staff',
        type: 'number',
        required: true,
        min: 1,
        max: 1000,
      },
      {
        key: 'refills_requested',
        label: 'Refills requested',
        source: 'staff',
        type: 'number',
        required: true,
        min: 1,
        max: 11,
      },
      { key: 'last_fill_date', label: 'Last filled on', source: 'staff', type: 'date', required: false },
      { key: 'notes', label: 'Notes for the prescriber', source: 'staff', type: 'textarea', required: false },
    ],
  },
  {
    id: 3,
    code: 'prior_authorization',
    name: 'Prior authorization request',
    description: "Gives the prescriber what the patient's plan needs to decide on a prior authorization.",
    recipient_kind: 'prescriber',
    program_types: ['monitoring', 'pharmacy', 'pharma'],
    fields: [
      patient.name,
      patient.dob,
      patient.sex,
      patient.address,
      patient.mrn,
      patient.physician,
      patient.medications,
      { key: 'medication', label: 'Medication requested', source: 'staff', type: 'text', required: true },
      {
        key: 'diagnosis_code',
        label: 'Diagnosis (ICD-10-CM)',
        source: 'staff',
        type: 'text',
        required: true,
        ...ICD10,
      },
      { key: 'insurance_plan', label: 'Insurance plan', source: 'staff', type: 'text', required: true },
      { key: 'member_id', label: 'Member ID', source: 'staff', type: 'text', required: true },
      {
        key: 'urgency',
        label: 'Urgency',
        source: 'staff',
        type: 'select',
        required: true,
        options: ['Standard', 'Expedited'],
      },
      {
        key: 'clinical_rationale',
        label: 'Clinical rationale',
        source: 'staff',
        type: 'textarea',
        required: true,
        hint: 'Prior treatments tried and why they failed or are contraindicated.',
      },
    ],
  },
  {
    id: 4,
    code: 'dispenser_enrolment',
    name: 'Dispenser enrolment form',
    description:
      'Enrols the patient with the dispensing pharmacy that fills the pods of their medication dispenser.',
    recipient_kind: 'pharmacy',
    program_types: ['monitoring', 'pharmacy'],
    fields: [
      patient.name,
      patient.dob,
      patient.address,
      patient.phone,
      patient.mrn,
      patient.physician,
      patient.medications,
      patient.devices,
      { key: 'pharmacy_name', label: 'Dispensing pharmacy', source: 'staff', type: 'text', required: true },
      { key: 'start_date', label: 'First fill wanted by', source: 'staff', type: 'date', required: true },
      {
        key: 'packaging',
        label: 'Packaging',
        source: 'staff',
        type: 'select',
        required: true,
        options: ['Dispenser pods', 'Blister packs'],
      },
      { key: 'notes', label: 'Notes for the pharmacy', source: 'staff', type: 'textarea', required: false },
    ],
  },
];
