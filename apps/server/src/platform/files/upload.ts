import { PassThrough, Transform } from 'node:stream';
import { hasForbiddenCharacters, strictBody } from '@caredeck/contracts';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import type { z } from 'zod';
import { AppError } from '../http/errors';
import { type FileStorage, newKey } from './storage';

export type UploadedFile = { key: string; fileName: string; contentType: string; size: number };
export type ReceivedForm = { fields: Record<string, string[]>; files: UploadedFile[] };

export type UploadRules = {
  storage: FileStorage;
  /** Storage key prefix, e.g. 'messenger'. */
  prefix: string;
  maxFiles: number;
  maxFileBytes: number;
  /** Media types accepted, judged from the content. */
  allowed: readonly string[];
  messages: { fileType: string; tooLarge: string; tooManyFiles: string };
};

const HEAD_BYTES = 4100;
const MAX_FIELDS = 50;
const MAX_FIELD_BYTES = 64 * 1024;

/** A file's name as the user gave it, reduced to a safe single line (never used as a path). */
export function safeFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = [...base]
    .filter((c) => !hasForbiddenCharacters(c, false))
    .join('')
    .trim();
  return clean.slice(0, 200) || 'file';
}

/** What a CSV or text file must be: UTF-8 throughout, with no NUL or other control byte but tab and line ends. */
export const NOT_TEXT_MESSAGE = 'The file is not a CSV text file (UTF-8).';

/**
 * A whole file as text, or null when it is not text: invalid UTF-8 anywhere, a control character (NUL
 * included) or a binary signature. One check for every CSV a route reads, before any byte reaches SQL.
 */
export async function csvText(bytes: Buffer): Promise<string | null> {
  if (await fileTypeFromBuffer(bytes.subarray(0, HEAD_BYTES))) return null;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  return hasForbiddenCharacters(text, true) ? null : text;
}

/** Follows a file's bytes as they stream past: whether all of them so far are UTF-8 text without controls. */
class TextCheck {
  private decoder = new TextDecoder('utf-8', { fatal: true });
  ok = true;
  push(chunk: Buffer) {
    if (!this.ok) return;
    try {
      if (hasForbiddenCharacters(this.decoder.decode(chunk, { stream: true }), true)) this.ok = false;
    } catch {
      this.ok = false;
    }
  }
  end(): boolean {
    this.push(Buffer.alloc(0));
    if (!this.ok) return false;
    try {
      this.decoder.decode();
    } catch {
      this.ok = false;
    }
    return this.ok;
  }
}

/** The media type of a file from its first bytes; plain text has no signature, so it is checked as UTF-8. */
export async function sniffType(head: Buffer, fileName: string): Promise<string | null> {
  const detected = await fileTypeFromBuffer(head);
  if (detected) return detected.mime;
  if (head.length === 0) return null;
  // A multi-byte character may be cut at the end of the head: drop up to 3 trailing bytes before decoding.
  const text = new TextDecoder('utf-8', { fatal: false }).decode(
    head.subarray(0, Math.max(0, head.length - 3)),
  );
  if (text.includes('\uFFFD') || hasForbiddenCharacters(text, true)) return null;
  return fileName.toLowerCase().endsWith('.csv') ? 'text/csv' : 'text/plain';
}

/**
 * Reads a multipart form, streaming each file straight to storage (a 25 MB file never sits in memory)
 * while keeping its first bytes to judge its type. A file over the limit answers 413, a type not allowed
 * or too many files 422; on any failure the files already stored are removed.
 */
export async function receiveForm(req: FastifyRequest, rules: UploadRules): Promise<ReceivedForm> {
  const fields: Record<string, string[]> = {};
  const files: UploadedFile[] = [];
  try {
    const parts = req.parts({
      limits: {
        files: rules.maxFiles,
        fileSize: rules.maxFileBytes,
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
      },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw AppError.validation({ [part.fieldname]: ['The value is too long.'] });
        const list = Object.hasOwn(fields, part.fieldname) ? (fields[part.fieldname] ?? []) : [];
        list.push(String(part.value));
        fields[part.fieldname] = list;
        continue;
      }
      const fileName = safeFileName(part.filename);
      const field = part.fieldname || 'files';
      const text = new TextCheck();
      const key = newKey(rules.prefix);
      let head = Buffer.alloc(0);
      let size = 0;
      const tap = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          text.push(chunk);
          if (head.length < HEAD_BYTES)
            head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
          done(null, chunk);
        },
      });
      try {
        await rules.storage.put(key, part.file.pipe(tap).pipe(new PassThrough()));
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' || part.file.truncated)
          throw new AppError('too_large', rules.messages.tooLarge, { [field]: [rules.messages.tooLarge] });
        throw err;
      }
      if (part.file.truncated) {
        await rules.storage.remove(key);
        throw new AppError('too_large', rules.messages.tooLarge, { [field]: [rules.messages.tooLarge] });
      }
      const sniffed = await sniffType(head, fileName);
      // Text has no signature: the head looked like text, so every byte after it must be too.
      const contentType = sniffed?.startsWith('text/') && !text.end() ? null : sniffed;
      if (!contentType || !rules.allowed.includes(contentType)) {
        await rules.storage.remove(key);
        throw AppError.validation({ [field]: [rules.messages.fileType] });
      }
      files.push({ key, fileName, contentType, size });
    }
    return { fields, files };
  } catch (err) {
    await Promise.all(files.map((f) => rules.storage.remove(f.key)));
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw AppError.validation({ files: [rules.messages.tooManyFiles] });
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('too_large', rules.messages.tooLarge, { files: [rules.messages.tooLarge] });
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_PROTO_VIOLATION')
      throw AppError.validation({ body: ['The form could not be read.'] });
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw AppError.validation({ body: ['The form has too many fields.'] });
    throw err;
  }
}

/**
 * The fields of a form checked against their schema: on any error the files already stored are removed
 * and the answer is a 422 with each field's messages (nothing half-written).
 */
export async function parseFormFields<T extends z.ZodType>(
  schema: T,
  raw: unknown,
  files: UploadedFile[],
  storage: FileStorage,
  options: { json?: boolean } = {},
): Promise<z.output<T>> {
  // A JSON body is strict like every other (ADR 070); a form's fields were picked by name already.
  const parsed = (options.json ? strictBody(schema) : schema).safeParse(raw);
  if (parsed.success) return parsed.data;
  await Promise.all(files.map((f) => storage.remove(f.key)));
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) errors[[...issue.path, key].join('.')] = ['This field is not accepted.'];
      continue;
    }
    const field = issue.path.join('.') || 'body';
    errors[field] = [...(Object.hasOwn(errors, field) ? errors[field]! : []), issue.message];
  }
  throw AppError.validation(errors);
}

/** Reads '1', 'true' and 'on' as true: how a form sends a ticked box. */
export function formFlag(value: string | undefined): boolean {
  return value === '1' || value === 'true' || value === 'on';
}

/** A form field that should be an id: a number when it looks like one, else the text (for its error). */
export function formId(value: string | undefined): number | string | undefined {
  if (value === undefined || value === '') return undefined;
  return /^[0-9]{1,15}$/.test(value) ? Number(value) : value;
}

export type CsvFormRules = {
  /** Largest file accepted, in bytes (413 beyond). */
  maxBytes: number;
  /** Text fields the form may carry besides the file. */
  maxFields?: number;
  maxFieldBytes?: number;
  messages: { required: string; tooLarge: string; tooManyFiles: string; notText?: string };
};

/**
 * A form carrying one CSV (held in memory: a few MB at most) and a few text fields. The file is judged by
 * its content: UTF-8 text throughout with no NUL or control byte, no binary signature (`csvText`); else
 * 422 naming the file field. Its bytes never reach a service, nor SQL, unchecked.
 */
export async function receiveCsvForm(
  req: FastifyRequest,
  rules: CsvFormRules,
): Promise<{ fields: Record<string, string>; file: { field: string; name: string; text: string } }> {
  if (!req.isMultipart()) throw AppError.validation({ file: [rules.messages.required] });
  const fields: Record<string, string> = {};
  let file: { field: string; name: string; text: string } | undefined;
  try {
    for await (const part of req.parts({
      limits: {
        files: 1,
        fileSize: rules.maxBytes,
        fields: rules.maxFields ?? 5,
        fieldSize: rules.maxFieldBytes ?? 100,
      },
    })) {
      if (part.type === 'field') {
        if (!Object.hasOwn(fields, part.fieldname)) fields[part.fieldname] = String(part.value);
        continue;
      }
      const field = part.fieldname || 'file';
      const bytes = await part.toBuffer();
      const text = await csvText(bytes);
      if (text === null) throw AppError.validation({ [field]: [rules.messages.notText ?? NOT_TEXT_MESSAGE] });
      file = { field, name: safeFileName(part.filename), text: text.replace(/^\uFEFF/, '') };
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('too_large', rules.messages.tooLarge, { file: [rules.messages.tooLarge] });
    if (code === 'FST_FILES_LIMIT') throw AppError.validation({ file: [rules.messages.tooManyFiles] });
    if (code?.startsWith('FST_')) throw AppError.validation({ body: ['The form could not be read.'] });
    throw err;
  }
  if (!file) throw AppError.validation({ file: [rules.messages.required] });
  return { fields, file };
}
