import { NavLink, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { type AppRoute, NAV_SECTIONS, type NavSection } from '../routeTypes';
import classes from './shell.module.css';

export interface NavigationProps {
  pages: readonly AppRoute[];
  onNavigate?: () => void;
}

/** The vertical navigation: only the console's real screens the user may open, in four labelled sections. */
export function Navigation({ pages, onNavigate }: NavigationProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const titles: Record<NavSection, string> = {
    care: t('nav.sections.care'),
    alerts: t('nav.sections.alerts'),
    insights: t('nav.sections.insights'),
    program: t('nav.sections.program'),
  };
  const menu = pages.filter((route) => route.menu);
  return (
    <Stack component="nav" gap={4} aria-label={t('nav.label')}>
      {NAV_SECTIONS.map((section) => {
        const routes = menu.filter((route) => route.menu!.section === section);
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
