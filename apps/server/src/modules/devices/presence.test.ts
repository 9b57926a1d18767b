import { describe, expect, it } from 'vitest';
import { parseStatus } from './gateway/presence';

const parse = (text: string) => parseStatus(Buffer.from(text));

describe('the status payload of the presence protocol', () => {
  it('reads online and offline as text or JSON', () => {
    expect(parse('online')).toEqual({ ok: true, online: true });
    expect(parse(' OFFLINE\n')).toEqual({ ok: true, online: false });
    expect(parse('"online"')).toEqual({ ok: true, online: true });
    expect(parse('{"online":false}')).toEqual({ ok: true, online: false });
    expect(parse('{"online":true,"firmware":"2.1.0","at":"2026-11-24T08:00:00Z"}')).toEqual({
      ok: true,
      online: true,
    });
  });

  it('treats an empty payload as a cleared retained status, and anything else as malformed', () => {
    expect(parseStatus(Buffer.alloc(0))).toEqual({ ok: false, cleared: true });
    for (const bad of ['maybe', '1', 'true', '{"online":"yes"}', '{}', '[true]', '{"online":', 'null'])
      expect(parse(bad), bad).toEqual({ ok: false, cleared: false });
    expect(parse(`{"online":true,"pad":"${'x'.repeat(300)}"}`)).toEqual({ ok: false, cleared: false });
  });
});
