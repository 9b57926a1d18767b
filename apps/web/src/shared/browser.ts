/**
 * Full-page navigation. Signing out reloads the application (01 §4) so that nothing of the session stays in
 * memory; tests replace these with spies.
 */
export const browserNavigation = {
  reloadAt(path: string): void {
    window.location.assign(path);
  },
  reload(): void {
    window.location.reload();
  },
};

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
