import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupByMessageDate, messageDateKey } from './message-dates';

describe('messageDateKey', () => {
  it('keys a UTC timestamp by the day in the local zone', () => {
    expect(messageDateKey('2026-11-22T03:30:00Z', 'America/New_York')).toBe('2026-11-21');
    expect(messageDateKey('2026-11-22T03:30:00Z', 'UTC')).toBe('2026-11-22');
    expect(messageDateKey('2026-11-21T16:00:00Z', 'Asia/Tokyo')).toBe('2026-11-22');
  });

  it('is null for a missing or invalid timestamp', () => {
    expect(messageDateKey(null, 'UTC')).toBeNull();
    expect(messageDateKey('', 'UTC')).toBeNull();
    expect(messageDateKey('yesterday', 'UTC')).toBeNull();
  });

  it('agrees with Intl for any instant and zone', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1970-01-01T00:00:00Z'),
          max: new Date('2100-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        fc.constantFrom(
          'America/New_York',
          'America/Detroit',
          'Europe/London',
          'Asia/Kathmandu',
          'Pacific/Auckland',
        ),
        (date, zone) => {
          // The en-CA locale writes dates as yyyy-MM-dd.
          const expected = new Intl.DateTimeFormat('en-CA', {
            timeZone: zone,
            year: 'numeric',
            month: '2-digit',
            day: '2-digit',
          }).format(date);
          expect(messageDateKey(date.toISOString(), zone)).toBe(expected);
        },
      ),
    );
  });
});

interface Message {
  id: number;
  sentAt: string | null;
}

describe('groupByMessageDate', () => {
  it('groups a sorted list into one group per local day, keeping order', () => {
    const messages: Message[] = [
      { id: 1, sentAt: '2026-11-21T14:00:00Z' },
      { id: 2, sentAt: '2026-11-22T03:00:00Z' }, // still the 21st in New York
      { id: 3, sentAt: '2026-11-22T15:00:00Z' },
      { id: 4, sentAt: '2026-11-22T16:00:00Z' },
    ];
    expect(groupByMessageDate(messages, (message) => message.sentAt, 'America/New_York')).toEqual([
      { dateKey: '2026-11-21', items: [messages[0], messages[1]] },
      { dateKey: '2026-11-22', items: [messages[2], messages[3]] },
    ]);
  });

  it('puts messages without a valid timestamp in a null-keyed group where they occur', () => {
    const messages: Message[] = [
      { id: 1, sentAt: '2026-11-21T14:00:00Z' },
      { id: 2, sentAt: null },
    ];
    expect(groupByMessageDate(messages, (message) => message.sentAt, 'UTC')).toEqual([
      { dateKey: '2026-11-21', items: [messages[0]] },
      { dateKey: null, items: [messages[1]] },
    ]);
  });

  it('never reorders an unsorted list', () => {
    const messages: Message[] = [
      { id: 1, sentAt: '2026-11-21T12:00:00Z' },
      { id: 2, sentAt: '2026-11-20T12:00:00Z' },
      { id: 3, sentAt: '2026-11-21T13:00:00Z' },
    ];
    expect(
      groupByMessageDate(messages, (message) => message.sentAt, 'UTC').map((group) => group.dateKey),
    ).toEqual(['2026-11-21', '2026-11-20', '2026-11-21']);
  });

  it('gives no groups for no messages', () => {
    expect(groupByMessageDate([], () => null, 'UTC')).toEqual([]);
  });

  it('flattens back to the input, with each item under its own key and neighbours keyed apart', () => {
    const timestamp = fc.oneof(
      fc
        .date({
          min: new Date('2026-01-01T00:00:00Z'),
          max: new Date('2026-01-05T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((date) => date.toISOString()),
      fc.constant(null),
    );
    fc.assert(
      fc.property(fc.array(timestamp, { maxLength: 40 }), (timestamps) => {
        const zone = 'America/New_York';
        const groups = groupByMessageDate(timestamps, (ts) => ts, zone);
        expect(groups.flatMap((group) => group.items)).toEqual(timestamps);
        for (const group of groups) {
          expect(group.items.length).toBeGreaterThan(0);
          for (const ts of group.items) expect(messageDateKey(ts, zone)).toBe(group.dateKey);
        }
        for (let index = 1; index < groups.length; index += 1) {
          expect(groups[index]?.dateKey).not.toBe(groups[index - 1]?.dateKey);
        }
      }),
    );
  });
});
