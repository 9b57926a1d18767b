import type { ResourceDefinition } from './resources/resource';

/** When the CapabilityStatement last changed: bump it with what is served. */
const CAPABILITY_DATE = '2026-11-29';

const BULK_DATA = 'http://hl7.org/fhir/uv/bulkdata';

/** Bulk Data `$export` at Patient and Group level (ADR 079). */
const exportOperation = (level: 'patient' | 'group') => ({
  name: 'export',
  definition: `${BULK_DATA}/OperationDefinition/${level}-export`,
  documentation:
    level === 'patient'
      ? 'All patients the reader may see, with their compartment (`_type`, `_since`, `_outputFormat`); needs `Prefer: respond-async`.'
      : 'The patients of a CareDeck cohort (`Group/{cohort id}`) of a program the reader may see, with their compartment.',
});

/**
 * What /fhir/R4 serves, exactly: each resource type with read and search-type and its search parameters,
 * JSON only. Public, like every FHIR server's metadata (it holds no data).
 */
export function capabilityStatement(baseUrl: string, resources: readonly ResourceDefinition[]) {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: CAPABILITY_DATE,
    publisher: 'CareDeck',
    kind: 'instance',
    instantiates: [`${BULK_DATA}/CapabilityStatement/bulk-data`],
    software: { name: 'CareDeck' },
    implementation: {
      description: 'CareDeck FHIR R4 (read, search and Bulk Data export)',
      url: `${baseUrl}/fhir/R4`,
    },
    fhirVersion: '4.0.1',
    format: ['json'],
    rest: [
      {
        mode: 'server',
        security: {
          extension: [
            {
              url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
              extension: [{ url: 'token', valueUri: `${baseUrl}/fhir/auth/token` }],
            },
          ],
          service: [
            {
              coding: [
                {
                  system: 'http://terminology.hl7.org/CodeSystem/restful-security-service',
                  code: 'SMART-on-FHIR',
                },
              ],
            },
          ],
          description:
            'SMART Backend Services clients of a program (client_credentials with a signed JWT assertion, system/*.rs scopes) read that program; staff read with their CareDeck session the programs they may open. Another program’s resources answer 404.',
        },
        resource: [
          ...resources.map((r) => ({
            type: r.type,
            ...(r.profiles.length > 0 ? { supportedProfile: r.profiles } : {}),
            interaction: [{ code: 'read' }, { code: 'search-type' }],
            ...(r.includes?.length ? { searchInclude: r.includes.map((i) => i.value) } : {}),
            ...(r.type === 'Patient' ? { operation: [exportOperation('patient')] } : {}),
            searchParam: [
              ...r.params.map((p) => ({ name: p.name, type: p.type, documentation: p.documentation })),
              {
                name: '_count',
                type: 'number',
                documentation:
                  'Page size (default 50, at most 500); the next page is the Bundle’s next link.',
              },
            ],
          })),
          // Group is served for $export only (a cohort), not read or searched.
          { type: 'Group', operation: [exportOperation('group')] },
        ],
      },
    ],
  };
}
