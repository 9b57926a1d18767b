import { z } from 'zod';
import { bodyId, idParam, line, text } from './common';
import { defineRoute } from './route';

/**
 * 02 §7 "Content" (ADR 033): the program's content library (categories of education material a care team
 * shares with patients) and each staff member's own folders of text-message templates, the templates that
 * ask the patient something being the SMS questions.
 */
export const CONTENT_MESSAGES = {
  categoryCreated: 'Category created',
  categoryUpdated: 'Category renamed',
  categoryDeleted: 'Category deleted',
  contentCreated: 'Content added',
  folderCreated: 'Folder created',
  folderUpdated: 'Folder renamed',
  folderDeleted: 'Folder deleted',
  templateCreated: 'Text message saved',
  templateUpdated: 'Text message updated',
  templateDeleted: 'Text message deleted',
  categoryExists: 'A category with this name already exists.',
  folderExists: 'You already have a folder with this name.',
  categoryNotFound: 'Category not found',
  folderNotFound: 'Folder not found',
  templateNotFound: 'Text message not found',
  /** 02 §8: what the console says when a content call fails. */
  backendError: 'Backend error!',
} as const;

/** The placeholders a template may hold, filled in for the patient when it is used. */
export const TEMPLATE_PLACEHOLDERS = ['{first_name}', '{last_name}', '{program}'] as const;

/** Standard questions every program has (ADR 033): adherence and symptom check-ins answered by a reply. */
export const STANDARD_SMS_QUESTIONS = [
  { key: 'took_medication', body: 'Hi {first_name}, did you take your medication today? Reply YES or NO.' },
  {
    key: 'side_effects',
    body: 'Hi {first_name}, have you noticed any side effects from your medication? Reply YES or NO.',
  },
  {
    key: 'feeling',
    body: 'Hi {first_name}, how are you feeling today on a scale of 1 (very poorly) to 5 (very well)? Reply with a number.',
  },
  {
    key: 'refill',
    body: 'Hi {first_name}, do you need a refill of any of your medications? Reply YES or NO.',
  },
  {
    key: 'reading_reminder',
    body: 'Hi {first_name}, we have not received a reading from you recently. Is your device working? Reply YES or NO.',
  },
] as const;

const person = z.object({ id: z.number().int(), name: z.string() }).nullable();

export const contentItem = z.object({
  id: z.number().int(),
  category_id: z.number().int(),
  title: z.string(),
  body: z.string(),
  url: z.string().nullable(),
  created_by: person,
  created_at: z.string(),
});
export type ContentItem = z.infer<typeof contentItem>;

export const contentCategory = z.object({
  id: z.number().int(),
  program_id: z.number().int(),
  name: z.string(),
  contents: z.array(contentItem),
});
export type ContentCategory = z.infer<typeof contentCategory>;

export const textMessageTemplate = z.object({
  id: z.number().int(),
  folder_id: z.number().int(),
  name: z.string(),
  body: z.string(),
  /** Asks the patient something: offered among the SMS questions. */
  question: z.boolean(),
  updated_at: z.string(),
});
export type TextMessageTemplate = z.infer<typeof textMessageTemplate>;

export const contentFolder = z.object({
  id: z.number().int(),
  program_id: z.number().int(),
  name: z.string(),
  text_messages: z.array(textMessageTemplate),
});
export type ContentFolder = z.infer<typeof contentFolder>;

export const smsQuestion = z.object({
  /** The template's id; null for a standard question. */
  id: z.number().int().nullable(),
  key: z.string(),
  body: z.string(),
  source: z.enum(['standard', 'mine']),
});
export type SmsQuestion = z.infer<typeof smsQuestion>;

const tags = ['content'] as const;
const programQuery = z.object({ program_id: idParam });
const name = (message: string) => line().trim().min(1, message).max(120);
const templateBody = z.object({
  name: name('Name the text message.'),
  body: text().trim().min(1, 'Write the text message.').max(1600, 'At most 1,600 characters (10 SMS).'),
  question: z.boolean().default(false),
});
export type TextMessageTemplateBody = z.input<typeof templateBody>;

export const contentContract = {
  categories: defineRoute({
    method: 'GET',
    path: '/api/v1/category',
    summary: "The program's content library: its categories, each with its content",
    tags,
    query: programQuery,
    responses: { 200: z.object({ data: z.array(contentCategory) }) },
  }),
  createCategory: defineRoute({
    method: 'POST',
    path: '/api/v1/category',
    summary: 'Add a category to the content library of a program',
    tags,
    body: z.object({ program_id: bodyId, name: name('Name the category.') }),
    responses: { 201: z.object({ message: z.string(), data: contentCategory }) },
  }),
  /** Not in the spec (it names POST and GET only): a library is kept tidy by renaming and removing (ADR 076). */
  updateCategory: defineRoute({
    method: 'PUT',
    path: '/api/v1/category/:id',
    summary: "Rename a category of the program's content library",
    tags,
    params: z.object({ id: idParam }),
    body: z.object({ name: name('Name the category.') }),
    responses: { 200: z.object({ message: z.string(), data: contentCategory }) },
  }),
  deleteCategory: defineRoute({
    method: 'DELETE',
    path: '/api/v1/category/:id',
    summary: 'Delete a category of the content library with its content (content already sent stays sent)',
    tags,
    params: z.object({ id: idParam }),
    responses: { 200: z.object({ message: z.string() }) },
  }),
  createContent: defineRoute({
    method: 'POST',
    path: '/api/v1/category/:id/content',
    summary: 'Add content (a text, optionally with a link) to a category',
    tags,
    params: z.object({ id: idParam }),
    body: z.object({
      title: name('Give the content a title.'),
      body: text().trim().max(5000).default(''),
      url: line()
        .trim()
        .max(2000)
        .url('Enter a full link, starting with https://')
        .refine((u) => /^https?:\/\//i.test(u), 'Enter a full link, starting with https://')
        .nullable()
        .default(null),
    }),
    responses: { 201: z.object({ message: z.string(), data: contentItem }) },
  }),
  folders: defineRoute({
    method: 'GET',
    path: '/api/v1/users/content',
    summary: 'Your folders of text-message templates in a program, with their templates',
    tags,
    query: programQuery,
    responses: { 200: z.object({ data: z.array(contentFolder) }) },
  }),
  createFolder: defineRoute({
    method: 'POST',
    path: '/api/v1/users/content',
    summary: 'Create one of your folders of text-message templates',
    tags,
    body: z.object({ program_id: bodyId, name: name('Name the folder.') }),
    responses: { 201: z.object({ message: z.string(), data: contentFolder }) },
  }),
  updateFolder: defineRoute({
    method: 'PUT',
    path: '/api/v1/users/content/:id',
    summary: 'Rename one of your folders',
    tags,
    params: z.object({ id: idParam }),
    body: z.object({ name: name('Name the folder.') }),
    responses: { 200: z.object({ message: z.string(), data: contentFolder }) },
  }),
  deleteFolder: defineRoute({
    method: 'DELETE',
    path: '/api/v1/users/content/:id',
    summary: 'Delete one of your folders with its text messages',
    tags,
    params: z.object({ id: idParam }),
    responses: { 200: z.object({ message: z.string() }) },
  }),
  createTemplate: defineRoute({
    method: 'POST',
    path: '/api/v1/text_message/:id',
    summary: 'Save a text-message template in one of your folders (the path id is the folder)',
    tags,
    params: z.object({ id: idParam }),
    body: templateBody,
    responses: { 201: z.object({ message: z.string(), data: textMessageTemplate }) },
  }),
  updateTemplate: defineRoute({
    method: 'POST',
    path: '/api/v1/text_message/:id/update',
    summary: 'Change one of your text-message templates',
    tags,
    params: z.object({ id: idParam }),
    // Without `question` the template stays what it was.
    body: templateBody.extend({ question: z.boolean().optional() }),
    responses: { 200: z.object({ message: z.string(), data: textMessageTemplate }) },
  }),
  deleteTemplate: defineRoute({
    method: 'DELETE',
    path: '/api/v1/text_message/:id',
    summary: 'Delete one of your text-message templates',
    tags,
    params: z.object({ id: idParam }),
    responses: { 200: z.object({ message: z.string() }) },
  }),
  smsQuestions: defineRoute({
    method: 'GET',
    path: '/api/v1/sms/questions',
    summary: 'Questions to text a patient: the standard ones, then your templates marked as questions',
    tags,
    query: programQuery,
    responses: { 200: z.object({ data: z.array(smsQuestion) }) },
  }),
};
