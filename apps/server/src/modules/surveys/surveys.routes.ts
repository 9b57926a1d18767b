import { surveysContract as c, SURVEY_MESSAGES as M } from '@caredeck/contracts';
import { staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import { patientObject } from '../patients/patients.queries';
import { surveyFolderObject, surveyObject } from './surveys.queries';
import { SURVEY_EDITOR_ROLES, type SurveysService, TRIGGER_EDITOR_ROLES } from './surveys.service';

export async function surveysRoutes(app: App, deps: { surveys: SurveysService }) {
  const { surveys } = deps;
  // Calls naming no program in the path: the service checks the query's or body's program (404 outside it).
  route(app, c.list, {
    access: access.staff(),
    handler: async (req) => surveys.list(staffActor(req), req.query),
  });
  route(app, c.create, {
    access: access.staff({ programRoles: SURVEY_EDITOR_ROLES }),
    handler: async (req) => surveys.create(staffActor(req), req.body),
  });
  route(app, c.folders, {
    access: access.staff(),
    handler: async (req) => surveys.folders(staffActor(req), req.query.program_id),
  });
  route(app, c.createFolder, {
    access: access.staff({ programRoles: SURVEY_EDITOR_ROLES }),
    handler: async (req) => surveys.createFolder(staffActor(req), req.body),
  });
  // The folder named in the body (query) decides the program, with the roles of `surveys/{s}/folder`.
  route(app, c.updateFolder, {
    access: access.objects(surveyFolderObject, {
      field: 'folder_id',
      roles: SURVEY_EDITOR_ROLES,
      notFound: M.folderNotFound,
    }),
    handler: async (req) => surveys.updateFolder(staffActor(req), req.body),
  });
  route(app, c.deleteFolder, {
    access: access.objects(surveyFolderObject, {
      field: 'folder_id',
      in: 'query',
      roles: SURVEY_EDITOR_ROLES,
      notFound: M.folderNotFound,
    }),
    handler: async (req) => surveys.deleteFolder(staffActor(req), req.query.folder_id),
  });
  route(app, c.bulkAssign, {
    access: access.staff({ programRoles: SURVEY_EDITOR_ROLES }),
    handler: async (req) => surveys.bulkAssign(staffActor(req), req.body),
  });

  const editSurvey = access.object(surveyObject, {
    param: 's',
    roles: SURVEY_EDITOR_ROLES,
    notFound: M.notFound,
  });
  route(app, c.updateLink, {
    access: editSurvey,
    handler: async (req) => surveys.updateLink(staffActor(req), req.params.s, req.body),
  });
  route(app, c.questions, {
    access: editSurvey,
    handler: async (req) => surveys.saveQuestions(staffActor(req), req.params.s, req.body),
  });
  for (const contract of [c.moveToFolder, c.moveToFolderPut])
    route(app, contract, {
      access: editSurvey,
      handler: async (req) => surveys.moveToFolder(staffActor(req), req.params.s, req.body.folder_id),
    });
  for (const contract of [c.removeFromFolder, c.removeFromFolderPut])
    route(app, contract, {
      access: editSurvey,
      handler: async (req) => surveys.moveToFolder(staffActor(req), req.params.s, null),
    });

  const readPatient = access.object(patientObject);
  const carePatient = access.object(patientObject, { roles: SURVEY_EDITOR_ROLES });
  route(app, c.assign, {
    access: carePatient,
    handler: async (req) => surveys.assign(staffActor(req), req.params.id, req.params.s, req.body),
  });
  route(app, c.unassign, {
    access: carePatient,
    handler: async (req) => surveys.unassign(staffActor(req), req.params.id, req.params.s),
  });
  route(app, c.patientSurveys, {
    access: readPatient,
    handler: async (req) =>
      surveys.patientSurveys(staffActor(req), req.params.id, req.query.available ?? false),
  });
  route(app, c.responses, {
    access: readPatient,
    handler: async (req) => surveys.responses(staffActor(req), req.params.id, req.query),
  });
  route(app, c.assignmentResponses, {
    access: readPatient,
    handler: async (req) => surveys.assignmentResponses(staffActor(req), req.params.id, req.params.su),
  });
  route(app, c.respond, {
    access: carePatient,
    handler: async (req) => surveys.respond(staffActor(req), req.params.id, req.params.su, req.body),
  });

  route(app, c.worklist, {
    access: access.program(),
    handler: async (req) => surveys.worklist(staffActor(req), req.query),
  });
  route(app, c.card, {
    access: access.program(),
    handler: async (req) => surveys.card(staffActor(req), req.params.surveyId),
  });
  const editTriggers = access.program(TRIGGER_EDITOR_ROLES);
  route(app, c.scoreTrigger, {
    access: editTriggers,
    handler: async (req) =>
      surveys.setTrigger(staffActor(req), 'score', req.params.surveyId, req.params.triggerId, {
        value: req.body.value,
      }),
  });
  route(app, c.toggleScoreTrigger, {
    access: editTriggers,
    handler: async (req) =>
      surveys.setTrigger(staffActor(req), 'score', req.params.surveyId, req.params.triggerId, {
        is_active: req.body.is_active,
      }),
  });
  route(app, c.questionTrigger, {
    access: editTriggers,
    handler: async (req) =>
      surveys.setTrigger(staffActor(req), 'question', req.params.surveyId, req.params.questionTriggerId, {
        value: req.body.value,
      }),
  });
  route(app, c.toggleQuestionTrigger, {
    access: editTriggers,
    handler: async (req) =>
      surveys.setTrigger(staffActor(req), 'question', req.params.surveyId, req.params.questionTriggerId, {
        is_active: req.body.is_active,
      }),
  });
  route(app, c.patientTriggers, {
    access: access.program(),
    handler: async (req) => surveys.patientTriggers(staffActor(req), req.params.patientId),
  });
  route(app, c.engagements, {
    access: access.program(),
    handler: async (req) => surveys.engagements(staffActor(req), req.params.patientId, req.params.surveyId),
  });
}
