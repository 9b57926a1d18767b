import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AwsClient } from 'aws4fetch';
import { AppError } from '../http/errors';
import type { FileStorage } from './storage';

/** S3's smallest part of a multipart upload but the last: parts are buffered up to this size, one at a time. */
export const S3_PART_BYTES = 5 * 1024 * 1024;

export type S3Options = {
  /** The endpoint with the bucket as its path: https://s3.eu-central-1.amazonaws.com/caredeck-files. */
  url: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
};

const KEY = /^[a-z0-9-]+(\/[a-z0-9-]+)*$/;

function xmlValue(xml: string, tag: string): string | null {
  return new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1] ?? null;
}

/** Reads a stream into parts of `size` bytes (the last one shorter): at most one part held at a time. */
async function* partsOf(source: Readable, size: number): AsyncGenerator<Buffer> {
  let chunks: Buffer[] = [];
  let held = 0;
  for await (const chunk of source) {
    let data = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    while (held + data.length >= size) {
      const take = size - held;
      chunks.push(data.subarray(0, take));
      yield Buffer.concat(chunks, size);
      chunks = [];
      held = 0;
      data = data.subarray(take);
    }
    if (data.length > 0) {
      chunks.push(data);
      held += data.length;
    }
  }
  if (held > 0 || chunks.length === 0) yield Buffer.concat(chunks, held);
}

/**
 * Uploaded files in an S3-compatible object store (ADR 035), behind the same interface as the disk: signed
 * with AWS Signature V4, path-style. A file streams through in 5 MiB parts (a multipart upload, aborted on
 * failure, so an object appears whole or not at all); a smaller one is one PUT. Reads stream the object.
 */
export function s3Storage(options: S3Options): FileStorage {
  const client = new AwsClient({
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
    service: 's3',
    region: options.region,
    retries: 2,
  });
  const base = options.url.replace(/\/+$/, '');
  const urlOf = (key: string, query = '') => {
    if (!KEY.test(key)) throw new Error('invalid storage key');
    return `${base}/${key}${query}`;
  };
  const send = async (url: string, init: RequestInit, what: string) => {
    const res = await client.fetch(url, init);
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`object store: ${what} answered ${res.status}`);
    }
    return res;
  };

  return {
    async put(key, source) {
      const parts = partsOf(source, S3_PART_BYTES);
      const first = await parts.next();
      const head = first.done ? Buffer.alloc(0) : first.value;
      if (head.length < S3_PART_BYTES) {
        await send(urlOf(key), { method: 'PUT', body: head }, 'put');
        return;
      }
      const created = await send(urlOf(key, '?uploads'), { method: 'POST' }, 'create upload');
      const uploadId = xmlValue(await created.text(), 'UploadId');
      if (!uploadId) throw new Error('object store: no upload id');
      const upload = `uploadId=${encodeURIComponent(uploadId)}`;
      const etags: string[] = [];
      try {
        let part: Buffer | undefined = head;
        while (part) {
          const n = etags.length + 1;
          const res = await send(
            urlOf(key, `?partNumber=${n}&${upload}`),
            { method: 'PUT', body: part },
            'part',
          );
          etags.push(res.headers.get('etag') ?? '');
          const next = await parts.next();
          part = next.done || next.value.length === 0 ? undefined : next.value;
        }
        const body = `<CompleteMultipartUpload>${etags
          .map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${etag}</ETag></Part>`)
          .join('')}</CompleteMultipartUpload>`;
        const done = await send(
          urlOf(key, `?${upload}`),
          { method: 'POST', body, headers: { 'content-type': 'application/xml' } },
          'complete upload',
        );
        // S3 may answer 200 with an error document when completing fails.
        const answer = await done.text();
        if (answer.includes('<Error>'))
          throw new Error(`object store: ${xmlValue(answer, 'Code') ?? 'error'}`);
      } catch (err) {
        await client.fetch(urlOf(key, `?${upload}`), { method: 'DELETE' }).then(
          (res) => res.body?.cancel(),
          () => undefined,
        );
        source.destroy();
        throw err;
      }
    },
    async open(key) {
      const res = await client.fetch(urlOf(key), { method: 'GET' });
      if (res.status === 404 || res.status === 403) {
        await res.body?.cancel();
        throw AppError.notFound();
      }
      if (!res.ok || !res.body) throw new Error(`object store: get answered ${res.status}`);
      const size = Number(res.headers.get('content-length') ?? 0);
      return { stream: Readable.fromWeb(res.body as unknown as WebReadableStream), size };
    },
    async remove(key) {
      const res = await client.fetch(urlOf(key), { method: 'DELETE' });
      await res.body?.cancel();
      if (!res.ok && res.status !== 404) throw new Error(`object store: delete answered ${res.status}`);
    },
  };
}
