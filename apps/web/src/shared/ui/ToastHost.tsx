import { MAX_TOASTS, TOAST_DURATION_MS, TOAST_POSITION } from '@caredeck/domain';
import { Notifications, notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { attachToastHost } from './toasts';

/**
 * Mantine's toast container (bottom-right, 4 s, at most 20), loaded after the first screen: the toasts asked
 * for before it came show once it is up (`toast.*` waits for it).
 */
export function ToastHost() {
  // Mounted after the container's own effect has set its limit and position: the waiting toasts get them.
  useEffect(() => attachToastHost((toast) => notifications.show(toast)), []);
  return <Notifications position={TOAST_POSITION} autoClose={TOAST_DURATION_MS} limit={MAX_TOASTS} />;
}
