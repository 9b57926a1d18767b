import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { controllerSession } from '../../../app/auth/controllerSession';
import { PublicLayout } from '../../../shared/ui/PublicLayout';
import { controllerApi } from '../calls';
import { AuthFailureContext } from '../components/AuthFailureAlert';
import { SignInForm } from '../components/SignInForm';

function controllerTarget(to: string | null): string {
  return to?.startsWith('/controller') && !to.startsWith('/controller/login') ? to : '/controller';
}

/** The controller realm's own sign-in (01 §4): a staff account does not open it. */
export function ControllerLoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const submit = async (emailValue: string, password: string) => {
    setBusy(true);
    setFailure(null);
    try {
      const result = await controllerApi.signIn(emailValue, password);
      controllerSession.start(result.access_token);
      navigate(controllerTarget(searchParams.get('to')), { replace: true });
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicLayout title={t('controller.signInTitle')} subtitle={t('controller.signInSubtitle')}>
      <AuthFailureContext.Provider value={failure === null ? null : { error: failure, kind: 'signIn' }}>
        <SignInForm initialEmail="" busy={busy} onSubmit={(e, p) => void submit(e, p)} />
      </AuthFailureContext.Provider>
    </PublicLayout>
  );
}
