import { type DateInput, toZonedMoment } from './instant';
import { resolveDisplayZone } from './time-zones';

/**
 * The day a message belongs to, as 'yyyy-MM-dd' in the reader's zone, from the UTC timestamp the API
 * sends (01 §9). Null when the timestamp is empty or invalid.
 */
export function messageDateKey(timestamp: DateInput, zone: string): string | null {
  return toZonedMoment(timestamp, resolveDisplayZone(zone))?.format('YYYY-MM-DD') ?? null;
}

export interface MessageDateGroup<T> {
  /** 'yyyy-MM-dd', or null for items whose timestamp is missing or invalid. */
  dateKey: string | null;
  items: T[];
}

/**
 * Splits a message list into runs of the same day, for date separators. Order is kept exactly: groups
 * are consecutive runs, so flattening them gives back the input. A time-sorted list therefore yields one
 * group per day; an unsorted one may show the same day twice rather than reorder messages.
 */
export function groupByMessageDate<T>(
  items: readonly T[],
  getTimestamp: (item: T) => DateInput,
  zone: string,
): MessageDateGroup<T>[] {
  const groups: MessageDateGroup<T>[] = [];
  let current: MessageDateGroup<T> | undefined;
  for (const item of items) {
    const dateKey = messageDateKey(getTimestamp(item), zone);
    if (!current || current.dateKey !== dateKey) {
      current = { dateKey, items: [] };
      groups.push(current);
    }
    current.items.push(item);
  }
  return groups;
}
