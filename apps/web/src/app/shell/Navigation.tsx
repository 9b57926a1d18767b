import { NavLink, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { AppRoute, MenuLabelKey } from '../router';
import classes from './shell.module.css';

export interface NavigationProps {
  pages: readonly AppRoute[];
  onNavigate?: () => void;
}

type Section = 'care' | 'alerts' | 'insights' | 'program';

/** Where each screen sits in the navigation: the day's care work, alerts, figures, the program's set-up. */
const SECTION_OF: Record<MenuLabelKey, Section> = {
  'nav.patients': 'care',
  'nav.messenger': 'care',
  'nav.worklist': 'care',
  'nav.cohorts': 'care',
  'nav.bulkActions': 'care',
  'nav.statusLogs': 'care',
  'nav.externalOrders': 'care',
  'nav.pipelines': 'care',
  'nav.surveys': 'care',
  'nav.alerts': 'alerts',
  'nav.alertsAnalytics': 'alerts',
  'nav.escalations': 'alerts',
  'nav.providerDashboard': 'insights',
  'nav.pharmaDashboard': 'insights',
  'nav.kpi': 'insights',
  'nav.billing': 'insights',
  'nav.reports': 'insights',
  'nav.pharmaReports': 'insights',
  'nav.patientReports': 'insights',
  'nav.content': 'program',
  'nav.protocols': 'program',
  'nav.staff': 'program',
  'nav.programs': 'program',
  'nav.logs': 'program',
  'nav.settings': 'program',
};
const SECTIONS: readonly Section[] = ['care', 'alerts', 'insights', 'program'];

/** The vertical navigation: only the console's real screens the user may open, in four labelled sections. */
export function Navigation({ pages, onNavigate }: NavigationProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const titles: Record<Section, string> = {
    care: t('nav.sections.care'),
    alerts: t('nav.sections.alerts'),
    insights: t('nav.sections.insights'),
    program: t('nav.sections.program'),
  };
  const menu = pages.filter((route) => route.menu);
  return (
    <Stack component="nav" gap={4} aria-label={t('nav.label')}>
      {SECTIONS.map((section) => {
        const routes = menu.filter((route) => SECTION_OF[route.menu!.labelKey] === section);
        if (routes.length === 0) return null;
        return (
          <Stack key={section} gap={2} component="section" aria-labelledby={`nav-${section}`}>
            <Text
              id={`nav-${section}`}
              size="xs"
              fw={700}
              className={classes.navSection}
              tt="uppercase"
              px="sm"
              pt={section === 'care' ? 0 : 'sm'}
            >
              {titles[section]}
            </Text>
            {routes.map((route) => {
              const Icon = route.menu!.icon;
              const active = pathname === route.path || pathname.startsWith(`${route.path}/`);
              return (
                <NavLink
                  key={route.id}
                  component={Link}
                  to={route.path}
                  label={t(route.menu!.labelKey)}
                  leftSection={<Icon size={20} stroke={1.6} aria-hidden />}
                  active={active}
                  aria-current={active ? 'page' : undefined}
                  className={classes.navLink}
                  onClick={onNavigate}
                />
              );
            })}
          </Stack>
        );
      })}
    </Stack>
  );
}
