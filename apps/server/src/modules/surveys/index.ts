import { defineModule } from '../../platform/module';
import { surveysRoutes } from './surveys.routes';
import { createSurveysService } from './surveys.service';

/** Surveys (assessments): building, assigning, answering, scoring and triggers (02 §7 "Surveys"; ADR 036). */
export const surveysModule = defineModule({
  name: 'surveys',
  async register(app, { db, realtime }) {
    await app.register(surveysRoutes, { surveys: createSurveysService({ db, realtime }) });
  },
});
