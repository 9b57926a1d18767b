import './styles/first.css';
import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, Suspense, useEffect, useMemo, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../shared/i18n';
import { useThemePreference } from '../shared/ui/themePreference';
import { deferredPart } from './shell/deferredPart';
import { loadRestStyles } from './styles/rest';
import { cssVariablesResolver, themeWithLabels } from './theme';

/**
 * The toasts' container and Mantine's notifications, with their styles (rest.css): loaded after the first render
 * (toasts wait for it).
 */
const ToastHost = deferredPart(() =>
  Promise.all([import('../shared/ui/ToastHost'), loadRestStyles()]).then(([m]) => m.ToastHost),
);

export interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
  /** 'test' turns off transitions and portals for component tests. */
  env?: 'default' | 'test';
}

/** Theme, data cache, translations and toasts (shared/ui/ToastHost: bottom-right, 4 s, at most 20). */
export function AppProviders({ queryClient, children, env = 'default' }: AppProvidersProps) {
  const preference = useThemePreference();
  const [language, setLanguage] = useState(i18n.language);
  // The first screen is drawn before the toasts' code is asked for.
  const [drawn, setDrawn] = useState(false);
  useEffect(() => setDrawn(true), []);
  useEffect(() => {
    const changed = (next: string) => setLanguage(next);
    i18n.on('languageChanged', changed);
    return () => i18n.off('languageChanged', changed);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the label is read again when the language changes.
  const theme = useMemo(
    () =>
      themeWithLabels({
        close: i18n.t('common.close'),
        pagination: {
          first: i18n.t('common.pagination.first'),
          previous: i18n.t('common.pagination.previous'),
          next: i18n.t('common.pagination.next'),
          last: i18n.t('common.pagination.last'),
        },
      }),
    [language],
  );
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      forceColorScheme={preference === 'dark' ? 'dark' : 'light'}
      env={env}
    >
      <QueryClientProvider client={queryClient}>
        <I18nextProvider i18n={i18n}>
          {drawn ? (
            <Suspense fallback={null}>
              <ToastHost />
            </Suspense>
          ) : null}
          {children}
        </I18nextProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
