import { ERROR_TOAST_DURATION_MS, firstErrorMessages, TOAST_DURATION_MS } from '@caredeck/domain';
import type { NotificationData } from '@mantine/notifications';
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

/**
 * Mantine's notifications load after the first screen (ADR 048): until their container is up (ToastHost),
 * toasts wait here and then show in the order they were asked for.
 */
let show: ((toast: NotificationData) => void) | null = null;
const waiting: NotificationData[] = [];

/** The toast container is up: what waited shows now, and later toasts go straight to it. */
export function attachToastHost(display: (toast: NotificationData) => void): () => void {
  show = display;
  for (const toast of waiting.splice(0)) display(toast);
  return () => {
    if (show === display) show = null;
  };
}

/** Tests only: drops the toasts of a page that never drew its container. */
export function discardWaitingToasts(): void {
  waiting.length = 0;
}

export function showToast(kind: ToastKind, message: ReactNode, options: ToastOptions = {}): string {
  sequence += 1;
  const toast: NotificationData = {
    id: options.id ?? `toast-${sequence}`,
    color: COLORS[kind],
    title: options.title,
    message,
    autoClose: options.durationMs ?? (kind === 'error' ? ERROR_TOAST_DURATION_MS : TOAST_DURATION_MS),
    priority: sequence,
    withBorder: true,
    // Mantine's close button is an icon only: give it a name.
    closeButtonProps: { 'aria-label': i18n.t('common.closeNotification') },
    'data-toast-kind': kind,
  };
  if (show) show(toast);
  else waiting.push(toast);
  return toast.id as string;
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

/**
 * One error toast per field of a 422 `errors` object (its first message); any other failure shows the
 * spec's message for the action (`fallback`, e.g. 'Unable to Add users! Please Try Again Later.').
 */
export function toastErrorsOr(error: unknown, fallback: string, options: ToastOptions = {}): void {
  const fields = error instanceof ApiError ? firstErrorMessages(error.fieldErrors) : [];
  for (const message of fields.length > 0 ? fields : [fallback]) toast.error(message, options);
}

/** One error toast per field of a 422 `errors` object (its first message), or one with the error's message. */
export function toastErrors(error: unknown, options: ToastOptions = {}): void {
  for (const message of errorMessagesOf(error)) toast.error(message, options);
}
