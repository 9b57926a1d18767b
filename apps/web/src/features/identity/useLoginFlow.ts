import { PASSWORD_EXPIRED, type SignInResult } from '@caredeck/contracts';
import { PASSWORD_EXPIRED_TOAST_DURATION_MS } from '@caredeck/domain';
import { useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { INITIAL_LOGIN_STEP, type LoginStep, loginTransition } from '../../app/auth/loginMachine';
import { session } from '../../app/auth/session';
import { completeSignIn, redirectTargetAfterSignIn } from '../../app/auth/signIn';
import { signOut } from '../../app/auth/signOut';
import { isApiError } from '../../shared/api-client';
import { toast } from '../../shared/ui/toasts';
import type { AuthFormKind } from './authFailure';
import { authApi } from './calls';
import type { AuthFailure } from './components/AuthFailureAlert';

export type RegisterValues = {
  given_name: string;
  family_name: string;
  email: string;
  password: string;
  confirmation: string;
};

const FORM_KINDS: Record<LoginStep['name'], AuthFormKind> = {
  signedOut: 'signIn',
  newPassword: 'challenge',
  mfa: 'challenge',
  hipaa: 'challenge',
  forgotPassword: 'emailed',
  forgotPasswordSubmit: 'emailed',
  register: 'emailed',
  confirmRegistration: 'emailed',
  signedIn: 'challenge',
};

function initialStep(): LoginStep {
  return session.get().status === 'hipaa' ? { name: 'hipaa' } : INITIAL_LOGIN_STEP;
}

/** The sign-in page's behaviour: each step's call, its messages, and the move to the next step. */
export function useLoginFlow() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [step, dispatchStep] = useReducer(loginTransition, undefined, initialStep);
  const [busy, setBusy] = useState(false);
  // The failure of the last attempt, with the step it happened on: it shows on that step only.
  const [failure, setFailure] = useState<{ step: LoginStep; error: unknown } | null>(null);
  const target = redirectTargetAfterSignIn(searchParams.get('to'));
  // Every move clears the failure: it is about the attempt on the step it happened on (issue 5 §7).
  const dispatch: typeof dispatchStep = (event) => {
    setFailure(null);
    dispatchStep(event);
  };

  const run = async (action: () => Promise<void>) => {
    const failedStep = step;
    setBusy(true);
    setFailure(null);
    try {
      await action();
    } catch (error) {
      setFailure({ step: failedStep, error });
    } finally {
      setBusy(false);
    }
  };

  const accept = async (result: SignInResult) => {
    if (result.status === 'signedIn') {
      await completeSignIn(result.access_token);
      dispatch({ type: 'signInResult', result });
      navigate(target, { replace: true });
      return;
    }
    if (result.status === 'hipaa') session.start(result.access_token, 'hipaa');
    dispatch({ type: 'signInResult', result });
  };

  const signIn = (email: string, password: string) =>
    run(async () => {
      try {
        await accept(await authApi.signIn(email, password));
      } catch (error) {
        if (!isApiError(error, 403) || error.body?.message !== PASSWORD_EXPIRED) throw error;
        toast.warning(t('auth.passwordExpiredMessage'), {
          title: t('auth.passwordExpiredTitle'),
          durationMs: PASSWORD_EXPIRED_TOAST_DURATION_MS,
        });
        dispatch({ type: 'passwordExpired', email: email.trim().toLowerCase() });
      }
    });

  const newPassword = (password: string, confirmation: string) =>
    run(async () => {
      if (step.name !== 'newPassword') return;
      await accept(await authApi.newPassword(step.challengeToken, password, confirmation));
    });

  const verifyMfa = (code: string) =>
    run(async () => {
      if (step.name !== 'mfa') return;
      await accept(await authApi.mfa(step.challengeToken, code));
    });

  const acceptHipaa = () => run(async () => accept(await authApi.acceptHipaa()));

  const requestReset = (email: string) =>
    run(async () => {
      const normalized = email.trim().toLowerCase();
      await authApi.forgotPassword(normalized);
      dispatch({ type: 'resetCodeSent', email: normalized });
    });

  const resetPassword = (code: string, password: string, confirmation: string) =>
    run(async () => {
      if (step.name !== 'forgotPasswordSubmit') return;
      await authApi.resetPassword(step.email, code, password, confirmation);
      toast.success(t('auth.reset.done'));
      dispatch({ type: 'passwordReset', email: step.email });
    });

  const register = (values: RegisterValues) =>
    run(async () => {
      await authApi.register(values);
      dispatch({ type: 'registered', email: values.email.trim().toLowerCase() });
    });

  const confirmRegistration = (code: string) =>
    run(async () => {
      if (step.name !== 'confirmRegistration') return;
      await authApi.confirmRegistration(step.email, code);
      toast.success(t('auth.confirm.done'));
      dispatch({ type: 'registrationConfirmed', email: step.email });
    });

  const shownFailure: AuthFailure | null =
    failure && failure.step === step ? { error: failure.error, kind: FORM_KINDS[step.name] } : null;

  return {
    step,
    busy,
    failure: shownFailure,
    signIn,
    newPassword,
    verifyMfa,
    acceptHipaa,
    declineHipaa: () => void signOut(),
    requestReset,
    resetPassword,
    register,
    confirmRegistration,
    showForgotPassword: (email: string) =>
      dispatch({ type: 'forgotPassword', email: email.trim().toLowerCase() }),
    showRegister: () => dispatch({ type: 'register' }),
    backToSignIn: () => dispatch({ type: 'backToSignIn' }),
  };
}
