import { expect, test } from './fixtures';
import { apiAccessToken, openAs } from './helpers';

interface StoredUser {
  id: number;
  roles: { name: string; program_id: number | null }[];
}

// Issue 2 §5: when an admin changes a user's program roles, AdminProgramRolesUpdated reaches that user's
// private channel and the console reloads the user's details without a page reload.
test('a role change by an admin reloads the user in the open console, without a page reload', async ({
  page,
  request,
}) => {
  await openAs(page, 'coordinator@caredeck.demo', '/');
  await expect(page).toHaveURL(/\/patients$/);
  await expect(page.getByTestId('patient-row').first()).toBeVisible();

  const readUser = () =>
    page.evaluate(() => JSON.parse(localStorage.getItem('userInfo') ?? 'null') as StoredUser | null);
  const before = await readUser();
  expect(before).not.toBeNull();
  const rolesIn1 = (user: StoredUser | null) =>
    (user?.roles ?? [])
      .filter((role) => role.program_id === 1)
      .map((role) => role.name)
      .sort();
  // Toggle the physician role, so the change is real whatever the roles are now.
  const next = rolesIn1(before).includes('physician')
    ? ['care_coordinator']
    : ['care_coordinator', 'physician'];

  // A marker that a page reload would wipe.
  await page.evaluate(() => {
    (window as unknown as { __noReload: boolean }).__noReload = true;
  });
  const refetch = page.waitForResponse(
    (res) => new URL(res.url()).pathname === '/api/v1/user' && res.request().method() === 'GET',
  );

  const token = await apiAccessToken(request, 'admin@caredeck.demo');
  const res = await request.put(`/api/v1/admins/${before!.id}`, {
    headers: { authorization: `Bearer ${token}` },
    data: { program_id: 1, roles: next },
  });
  expect(res.status(), await res.text()).toBe(200);

  const response = await refetch;
  expect(response.status()).toBe(200);
  await expect.poll(async () => rolesIn1(await readUser())).toEqual(next);
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  await expect(page).toHaveURL(/\/patients$/);
  await expect(page.getByTestId('patient-row').first()).toBeVisible();
});
