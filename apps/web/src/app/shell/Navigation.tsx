import { NavLink, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { AppRoute } from '../router';
import classes from './shell.module.css';

export interface NavigationProps {
  pages: readonly AppRoute[];
  onNavigate?: () => void;
}

/** The vertical navigation: only the console's real screens the user may open. */
export function Navigation({ pages, onNavigate }: NavigationProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <Stack component="nav" gap={4} aria-label={t('nav.label')}>
      {pages.map((route) => {
        if (!route.menu) return null;
        const Icon = route.menu.icon;
        const active = pathname === route.path || pathname.startsWith(`${route.path}/`);
        return (
          <NavLink
            key={route.id}
            component={Link}
            to={route.path}
            label={t(route.menu.labelKey)}
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
}
