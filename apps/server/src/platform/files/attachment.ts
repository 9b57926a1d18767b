import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** Sends a stored file, always as a download (never rendered by the browser), under its own name. */
export function sendAttachment(
  reply: FastifyReply,
  file: { stream: Readable; size: number; fileName: string; contentType: string },
) {
  reply
    .header('content-type', file.contentType)
    .header('content-length', String(file.size))
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.fileName)}`);
  return reply.send(file.stream);
}
