import { ERROR_TOAST_DURATION_MS } from '@caredeck/domain';
import { isApiError } from '../../shared/api-client';
import { sleep } from '../../shared/browser';
import { readItem, STORAGE_KEYS } from '../../shared/browser-storage';
import { i18n } from '../../shared/i18n';
import { toast } from '../../shared/ui/toasts';
import { session } from './session';
import { signOut } from './signOut';

/**
 * The user's details could not be read (01 §2, §8). A 401 means the session is over. Otherwise: with no
 * stored identity, sign out at once; with one, say so ('Error communicating with backend!', 2.5 s), then sign out.
 */
export async function handleUserFetchFailure(error: unknown): Promise<void> {
  if (isApiError(error, 401)) {
    session.end('expired');
    return;
  }
  console.error('The user details could not be loaded', error);
  if (readItem(STORAGE_KEYS.userInfo) === null) {
    await signOut();
    return;
  }
  toast.error(i18n.t('errors.backend'), { durationMs: ERROR_TOAST_DURATION_MS });
  await sleep(ERROR_TOAST_DURATION_MS);
  await signOut();
}
