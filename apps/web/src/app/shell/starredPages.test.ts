import { STARRED_PAGES_LIMIT } from '@caredeck/domain';
import { describe, expect, it } from 'vitest';
import { readStarredPages, toggleStarredPage } from './starredPages';

describe('starred pages (01 §2, §9)', () => {
  it('keeps at most 10 per user, remembered on this device', () => {
    expect(STARRED_PAGES_LIMIT).toBe(10);
    for (let index = 1; index <= STARRED_PAGES_LIMIT; index += 1) {
      expect(toggleStarredPage(7, `page${index}`).result).toBe('starred');
    }
    expect(toggleStarredPage(7, 'page11')).toMatchObject({ result: 'limitReached' });
    expect(readStarredPages(7)).toHaveLength(10);
    expect(readStarredPages(7)).not.toContain('page11');
    // Another user on the same device has their own stars.
    expect(readStarredPages(8)).toEqual([]);
    expect(toggleStarredPage(7, 'page3').result).toBe('unstarred');
    expect(toggleStarredPage(7, 'page11').result).toBe('starred');
    expect(readStarredPages(7)).toHaveLength(10);
  });
});
