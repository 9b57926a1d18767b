import { catalogueContract as c, geographyContract as geo } from '@caredeck/contracts';
import { access } from '../../platform/access/rules';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { drugAttribute, searchDiagnosisCodes, searchDiseaseStates, searchDrugs } from './catalogue.queries';
import { searchCities, searchStates } from './geography.data';

/** Reference data, no PHI: the routes read the catalogue directly (no use case, no audit). */
export async function catalogueRoutes(app: App, deps: { db: Database }) {
  const { db } = deps;
  route(app, geo.states, {
    access: access.staff(),
    handler: async (req) => ({ data: searchStates(req.query.search, req.query.limit) }),
  });
  route(app, geo.allStates, {
    access: access.staff(),
    handler: async () => ({ data: searchStates('', 1000) }),
  });
  route(app, geo.cities, {
    access: access.staff(),
    handler: async (req) => {
      const data = searchCities(req.params.state, req.query.search, req.query.limit);
      if (!data) throw AppError.notFound('Unknown state.');
      return { data };
    },
  });
  route(app, c.drugs, {
    access: access.program(),
    handler: async (req) => ({ data: await searchDrugs(db, req.query.query, 20) }),
  });
  route(app, c.allDrugs, {
    access: access.staff(),
    handler: async (req) => ({ data: await searchDrugs(db, req.query.query, 20) }),
  });
  for (const attribute of ['strengths', 'routes', 'forms', 'indications'] as const) {
    route(app, c[attribute], {
      access: access.program(),
      handler: async (req) => {
        const values = await drugAttribute(db, req.params.q, attribute);
        if (!values) throw AppError.notFound();
        return { data: values };
      },
    });
  }
  route(app, c.diseaseStates, {
    access: access.program(),
    handler: async (req) => ({ data: await searchDiseaseStates(db, req.query.query, 50) }),
  });
  route(app, c.allDiseaseStates, {
    access: access.staff(),
    handler: async () => ({ data: await searchDiseaseStates(db, '', 1000) }),
  });
  route(app, c.diagnosisCodes, {
    access: access.program(),
    handler: async (req) => ({ data: await searchDiagnosisCodes(db, req.query.query, 25) }),
  });
}
