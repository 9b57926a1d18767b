import { Center, Loader, Stack } from '@mantine/core';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { LoginStep } from '../../../app/auth/loginMachine';
import { loadIdentityContracts } from '../../../app/auth/session';
import { usePageTitle } from '../../../app/documentTitle';
import { LanguagePicker } from '../../../shared/ui/LanguagePicker';
import { LegalLinks } from '../../../shared/ui/LegalLinks';
import { PublicLayout } from '../../../shared/ui/PublicLayout';
import { AuthFailureContext } from '../components/AuthFailureAlert';
import { CodeForm } from '../components/CodeForm';
import { SignInForm } from '../components/SignInForm';
import { useLoginFlow } from '../useLoginFlow';

// The sign-in form comes with the page; the other steps (the consent text, registration …) and the contracts of
// the sign-in calls (with zod) load once the form is on screen, so the page shows sooner and they are usually
// there before they are needed.
const loadHipaa = () => import('../components/HipaaConsent');
const loadNewPassword = () => import('../components/NewPasswordForm');
const loadForgot = () => import('../components/ForgotPasswordForm');
const loadReset = () => import('../components/ResetPasswordForm');
const loadRegister = () => import('../components/RegisterForm');
const HipaaConsent = lazy(() => loadHipaa().then((m) => ({ default: m.HipaaConsent })));
const NewPasswordForm = lazy(() => loadNewPassword().then((m) => ({ default: m.NewPasswordForm })));
const ForgotPasswordForm = lazy(() => loadForgot().then((m) => ({ default: m.ForgotPasswordForm })));
const ResetPasswordForm = lazy(() => loadReset().then((m) => ({ default: m.ResetPasswordForm })));
const RegisterForm = lazy(() => loadRegister().then((m) => ({ default: m.RegisterForm })));

function prefetchSteps() {
  for (const load of [loadIdentityContracts, loadHipaa, loadNewPassword, loadForgot, loadReset, loadRegister])
    load().catch(() => {
      // Tried again when the step is reached (and shown as a failed page then).
    });
}

type TitleKey =
  | 'auth.signInTitle'
  | 'auth.newPassword.title'
  | 'auth.mfa.title'
  | 'auth.hipaa.title'
  | 'auth.forgot.title'
  | 'auth.reset.title'
  | 'auth.register.title'
  | 'auth.confirm.title';

const TITLES: Record<LoginStep['name'], TitleKey> = {
  signedOut: 'auth.signInTitle',
  newPassword: 'auth.newPassword.title',
  mfa: 'auth.mfa.title',
  hipaa: 'auth.hipaa.title',
  forgotPassword: 'auth.forgot.title',
  forgotPasswordSubmit: 'auth.reset.title',
  register: 'auth.register.title',
  confirmRegistration: 'auth.confirm.title',
  signedIn: 'auth.signInTitle',
};

/** /login: every step of 01 §4 on one page. */
export function LoginPage() {
  const { t } = useTranslation();
  const flow = useLoginFlow();
  useEffect(() => {
    const timer = setTimeout(prefetchSteps, 0);
    return () => clearTimeout(timer);
  }, []);
  const { step, busy } = flow;
  // The tab names the step: 'Sign in · CareDeck', 'Two-factor authentication · CareDeck' …
  usePageTitle(
    step.name === 'signedOut' || step.name === 'signedIn' ? t('auth.signIn') : t(TITLES[step.name]),
  );

  const waiting = (
    <Center py="md">
      <Loader aria-label={t('common.loading')} />
    </Center>
  );
  const body = (() => {
    switch (step.name) {
      case 'signedOut':
        return (
          <SignInForm
            key={step.email}
            initialEmail={step.email}
            busy={busy}
            onSubmit={flow.signIn}
            onForgotPassword={flow.showForgotPassword}
            onRegister={flow.showRegister}
          />
        );
      case 'newPassword':
        return <NewPasswordForm busy={busy} onSubmit={flow.newPassword} onBack={flow.backToSignIn} />;
      case 'mfa':
        return (
          <CodeForm
            description={t('auth.mfa.description')}
            codeLabel={t('auth.mfa.code')}
            submitLabel={t('auth.mfa.submit')}
            busy={busy}
            onSubmit={flow.verifyMfa}
            onBack={flow.backToSignIn}
          />
        );
      case 'hipaa':
        return <HipaaConsent busy={busy} onAccept={flow.acceptHipaa} onDecline={flow.declineHipaa} />;
      case 'forgotPassword':
        return (
          <ForgotPasswordForm
            initialEmail={step.email}
            busy={busy}
            onSubmit={flow.requestReset}
            onBack={flow.backToSignIn}
          />
        );
      case 'forgotPasswordSubmit':
        return (
          <ResetPasswordForm
            email={step.email}
            busy={busy}
            onSubmit={flow.resetPassword}
            onBack={flow.backToSignIn}
          />
        );
      case 'register':
        return <RegisterForm busy={busy} onSubmit={flow.register} onBack={flow.backToSignIn} />;
      case 'confirmRegistration':
        return (
          <CodeForm
            description={t('auth.confirm.description', { email: step.email })}
            codeLabel={t('auth.confirm.code')}
            submitLabel={t('auth.confirm.submit')}
            busy={busy}
            onSubmit={flow.confirmRegistration}
            onBack={flow.backToSignIn}
          />
        );
      case 'signedIn':
        return waiting;
    }
  })();

  return (
    <PublicLayout
      title={t(TITLES[step.name])}
      subtitle={step.name === 'signedOut' ? t('auth.signInSubtitle') : undefined}
      width={step.name === 'hipaa' || step.name === 'register' ? 560 : 440}
      footer={
        <Stack gap="sm" align="center">
          <LanguagePicker size="xs" w={180} />
          <LegalLinks />
        </Stack>
      }
    >
      <div data-testid={`login-step-${step.name}`}>
        <AuthFailureContext.Provider value={flow.failure}>
          <Suspense fallback={waiting}>{body}</Suspense>
        </AuthFailureContext.Provider>
      </div>
    </PublicLayout>
  );
}
