import { AUTH_REFRESH_ROUTE, authContract, errorBody } from '@caredeck/contracts';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, on } from '../test/fetchMock';
import { ApiError, callBeforeContract, readErrorBody } from './api-client';

describe('the error shape read without zod', () => {
  const samples: unknown[] = [
    { message: 'Unauthenticated.' },
    { message: 'The given data was invalid.', errors: { email: ['Taken.', 'Invalid.'] }, extra: 1 },
    { message: 'Server Error', error_id: 'e1' },
    { message: 'x', errors: { email: 'Taken.' } },
    { message: 'x', errors: [] },
    { message: 'x', errors: null },
    { message: 'x', error_id: 5 },
    { message: 5 },
    { errors: { email: ['Taken.'] } },
    'Too Many Requests',
    null,
    undefined,
    [],
  ];

  it("reads what the contracts' errorBody accepts, as it would, and nothing else", () => {
    for (const sample of samples) {
      const parsed = errorBody.safeParse(sample);
      expect(readErrorBody(sample), JSON.stringify(sample)).toEqual(parsed.success ? parsed.data : null);
    }
  });
});

describe('a call made before its contract has loaded', () => {
  it('leaves at once, and its answer is read by the contract once loaded', async () => {
    const server = mockFetch({
      [on(authContract.refresh)]: { body: { access_token: 'fresh', expires_in: 900, ignored: true } },
    });
    let release: () => void = () => {};
    const loaded = new Promise<void>((resolve) => {
      release = resolve;
    });
    const load = vi.fn(async () => {
      await loaded;
      return authContract.refresh;
    });
    const result = callBeforeContract(
      AUTH_REFRESH_ROUTE,
      load,
      { query: { include: 'user' } },
      { auth: 'none' },
    );
    await vi.waitFor(() => expect(server.calls).toHaveLength(1));
    expect(server.calls[0]?.url.search).toBe('?include=user');
    release();
    await expect(result).resolves.toEqual({ access_token: 'fresh', expires_in: 900 });
  });

  it('fails without waiting for the contract', async () => {
    mockFetch({ [on(authContract.refresh)]: { status: 401, body: { message: 'Unauthenticated.' } } });
    const load = vi.fn(() => new Promise<typeof authContract.refresh>(() => {}));
    await expect(
      callBeforeContract(AUTH_REFRESH_ROUTE, load, { query: {} }, { auth: 'none' }),
    ).rejects.toEqual(new ApiError(401, { message: 'Unauthenticated.' }));
    expect(load).not.toHaveBeenCalled();
  });
});
