import type { ActiveUser } from '@caredeck/contracts';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useIdleTimeoutSeconds } from '../../features/identity/api';
import { applyLanguage } from '../../shared/i18n';
import { hideLoadingOverlay } from '../../shared/ui/loadingOverlay';
import { applyTheme } from '../../shared/ui/themePreference';
import { startIdleTimer } from '../auth/idleTimer';
import { session, useSession } from '../auth/session';
import { loginPath } from '../auth/signIn';
import { signOut } from '../auth/signOut';
import { handleUserFetchFailure } from '../auth/userFailure';

/**
 * What the console does around the session: inactivity sign-out, back to /login when the session ends
 * underneath the page, a failed reload of the user, the user's language and theme, and the loading overlay
 * hidden after each navigation.
 */
export function useSessionLifecycle(user: ActiveUser | undefined, userError: Error | null): void {
  const navigate = useNavigate();
  const location = useLocation();
  const { status, endReason } = useSession();
  const idleTimeoutSeconds = useIdleTimeoutSeconds();

  useEffect(() => {
    if (status === 'signedOut' && endReason === 'expired') {
      navigate(loginPath(`${location.pathname}${location.search}`), { replace: true });
    }
  }, [status, endReason, navigate, location.pathname, location.search]);

  useEffect(
    () =>
      startIdleTimer({
        timeoutMs: idleTimeoutSeconds * 1000,
        onIdle: () => void signOut(),
        serverContactAt: session.lastServerContactAt,
        // An active user who makes no calls (a long form) must not lose the session on the server.
        onKeepAlive: () => void session.refresh(),
      }),
    [idleTimeoutSeconds],
  );

  // Reloading the user's details failed (e.g. after a live role change): the rules of 01 §2 and §8.
  useEffect(() => {
    if (userError) void handleUserFetchFailure(userError);
  }, [userError]);

  const language = user?.settings.language;
  const theme = user?.settings.theme;
  useEffect(() => {
    if (language) void applyLanguage(language);
    if (theme) applyTheme(theme);
  }, [language, theme]);

  const navigationKey = location.key;
  useEffect(() => {
    if (navigationKey) hideLoadingOverlay();
  }, [navigationKey]);
}
