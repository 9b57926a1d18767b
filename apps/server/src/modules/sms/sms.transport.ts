import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';

/** Where texts go: one interface, a log transport by default, an HTTP provider when configured. */
export type SmsTransport = {
  /** Sends one text; answers the provider's id and whether it is already delivered (the log transport). */
  send(message: {
    id: number;
    to: string;
    body: string;
  }): Promise<{ providerId: string; delivered: boolean }>;
};

/**
 * Development transport: nothing leaves the machine; the message counts as delivered and is read in the
 * console (the patient's SMS thread). The log line carries ids and lengths only, never the text (PHI).
 */
export function logSmsTransport(log: FastifyBaseLogger): SmsTransport {
  return {
    async send(m) {
      log.info({ sms: { id: m.id, length: m.body.length } }, 'sms (log transport)');
      return { providerId: `log-${m.id}`, delivered: true };
    },
  };
}

/**
 * A provider's HTTP API (Twilio-style): POST form fields To, Body, StatusCallback with HTTP Basic
 * credentials from SMS_PROVIDER_URL (https://user:secret@api.example.com/messages); answers JSON with `sid`/`id`.
 */
export function httpSmsTransport(url: string, from: string, statusCallback: string | null): SmsTransport {
  const target = new URL(url);
  const auth = target.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`).toString('base64')}`
    : null;
  target.username = '';
  target.password = '';
  return {
    async send(m) {
      const form = new URLSearchParams({ To: m.to, From: from, Body: m.body });
      if (statusCallback) form.set('StatusCallback', statusCallback);
      const res = await fetch(target, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(auth ? { authorization: auth } : {}),
        },
        body: form,
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`provider answered ${res.status}`);
      const body = (await res.json().catch(() => ({}))) as { sid?: string; id?: string };
      return { providerId: String(body.sid ?? body.id ?? `http-${m.id}`), delivered: false };
    },
  };
}

/** The signature a provider's webhook carries: hex HMAC-SHA256 of `timestamp.body` with the shared secret. */
export function signSmsWebhook(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

export function verifySmsWebhook(
  secret: string,
  timestamp: string,
  body: string,
  signature: string,
): boolean {
  const expected = Buffer.from(signSmsWebhook(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
