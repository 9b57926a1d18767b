import { ERROR_TOAST_DURATION_MS, firstErrorMessages, TOAST_DURATION_MS } from '@caredeck/domain';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { ApiError } from '../api-client';
import { i18n } from '../i18n';

export type ToastKind = 'success' | 'error' | 'warning' | 'info';

export interface ToastOptions {
  title?: ReactNode;
  /** Milliseconds; defaults to 4 s, or 2.5 s for errors. */
  durationMs?: number;
  id?: string;
}

const COLORS: Record<ToastKind, string> = {
  success: 'success',
  error: 'danger',
  warning: 'warning',
  info: 'secondary',
};

// Mantine shows the highest priority first and queues the rest beyond the limit: a rising priority puts
// the newest toast on top and keeps the newest 20 on screen.
let sequence = 0;

export function showToast(kind: ToastKind, message: ReactNode, options: ToastOptions = {}): string {
  sequence += 1;
  return notifications.show({
    id: options.id,
    color: COLORS[kind],
    title: options.title,
    message,
    autoClose: options.durationMs ?? (kind === 'error' ? ERROR_TOAST_DURATION_MS : TOAST_DURATION_MS),
    priority: sequence,
    withBorder: true,
    // Mantine's close button is an icon only: give it a name.
    closeButtonProps: { 'aria-label': i18n.t('common.closeNotification') },
    'data-toast-kind': kind,
  });
}

export const toast = {
  success: (message: ReactNode, options?: ToastOptions) => showToast('success', message, options),
  error: (message: ReactNode, options?: ToastOptions) => showToast('error', message, options),
  warning: (message: ReactNode, options?: ToastOptions) => showToast('warning', message, options),
  info: (message: ReactNode, options?: ToastOptions) => showToast('info', message, options),
};

/** The messages to show for a failed call: the first message of each field of a 422, else the message. */
export function errorMessagesOf(error: unknown): string[] {
  if (error instanceof ApiError) {
    const fieldMessages = firstErrorMessages(error.fieldErrors);
    if (fieldMessages.length > 0) return fieldMessages;
    if (error.status === 0) return [i18n.t('errors.network')];
    if (error.status === 429) return [i18n.t('errors.rateLimited')];
    if (error.status >= 500) return [i18n.t('errors.server')];
    return [error.message];
  }
  return [i18n.t('errors.unexpected')];
}

/** One error toast per field of a 422 `errors` object (its first message), or one with the error's message. */
export function toastErrors(error: unknown, options: ToastOptions = {}): void {
  for (const message of errorMessagesOf(error)) toast.error(message, options);
}
