import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/fetchMock';
import { renderRoutes, spyOnBrowserNavigation } from '../test/render';
import { ChunkLoadError, lazyPage } from './lazyPage';
import type { AppRoute } from './routeTypes';

describe('pages loaded on demand', () => {
  it('give up after the time-out with a ChunkLoadError', async () => {
    vi.useFakeTimers();
    try {
      const load = lazyPage(() => new Promise<Record<string, never>>(() => {}), 'Never', 120_000);
      const result = load();
      const assertion = expect(result).rejects.toBeInstanceOf(ChunkLoadError);
      await vi.advanceTimersByTimeAsync(120_000);
      await assertion;
    } finally {
      vi.useRealTimers();
    }
  });

  it('show a retry screen when a page cannot be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({});
    const navigation = spyOnBrowserNavigation();
    const broken: AppRoute = {
      id: 'broken',
      path: '/broken',
      auth: 'public',
      page: lazyPage(
        () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
        'Broken',
      ),
    };
    renderRoutes('/broken', [broken]);
    expect(
      await screen.findByRole('heading', { name: 'This part of CareDeck did not load' }),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(navigation.reload).toHaveBeenCalled();
  });
});
