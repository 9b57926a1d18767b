import { Alert, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../../shared/api-client';
import { PublicLayout } from '../../../shared/ui/PublicLayout';
import { keepGuestSession, verifyLink } from '../api';
import '../i18n';

/**
 * /guest/external-redirect (and /guest): where an invitation's link lands. The link is verified, its token
 * kept for this tab, and the guest messenger opens with the sender, receiver and conversation ids.
 */
export function GuestRedirectPage() {
  const { t } = useTranslation('guest');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token') ?? '';
  const [error, setError] = useState<string | null>(token ? null : t('invalid'));

  useEffect(() => {
    if (!token) return;
    let cancelled = false;
    verifyLink(token).then(
      (res) => {
        if (cancelled) return;
        keepGuestSession({ token: res.token, conversation: res.conversation });
        const query = new URLSearchParams({
          sender: String(res.sender),
          receiver: String(res.receiver),
          conversation: String(res.conversation),
        });
        navigate(`/guest/messenger?${query}`, { replace: true });
      },
      (err: unknown) => {
        if (cancelled) return;
        setError(isApiError(err, 429) ? t('tooMany') : t('invalid'));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [token, navigate, t]);

  return (
    <PublicLayout title={t('title')}>
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : (
        <Stack align="center" gap="sm">
          <Loader size="sm" aria-label={t('checking')} />
          <Text size="sm">{t('checking')}</Text>
        </Stack>
      )}
    </PublicLayout>
  );
}
