import { Alert, List } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { type AuthFormKind, authFailureMessages } from '../authFailure';

export interface AuthFailure {
  error: unknown;
  kind: AuthFormKind;
}

/** The failure of the auth step on screen, if any: the page provides it, the step's form shows it. */
export const AuthFailureContext = createContext<AuthFailure | null>(null);

/**
 * The failure of the last submit, at the form (not a toast in the corner that outlives the step). Worded at
 * render time, so it follows a language change; role="alert" so screen readers announce it.
 */
export function AuthFailureAlert() {
  const { t } = useTranslation();
  const failure = useContext(AuthFailureContext);
  if (!failure) return null;
  const messages = authFailureMessages(failure.error, failure.kind, t);
  return (
    <Alert
      color="danger"
      variant="light"
      role="alert"
      icon={<IconAlertCircle size={18} aria-hidden />}
      data-testid="auth-error"
    >
      {messages.length === 1 ? (
        messages[0]
      ) : (
        <List size="sm">
          {messages.map((message) => (
            <List.Item key={message}>{message}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
