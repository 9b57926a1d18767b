import {
  ActionIcon,
  AppShell,
  Box,
  Burger,
  Button,
  Center,
  Group,
  Kbd,
  Loader,
  LoadingOverlay,
  ScrollArea,
  Text,
  ThemeIcon,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure, useHotkeys } from '@mantine/hooks';
import { spotlight } from '@mantine/spotlight';
import { IconHeartbeat, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useNavigation } from 'react-router';
import { userQuery } from '../../features/identity/calls';
import { NotificationBell } from '../../features/messenger/components/NotificationBell';
import { ScopeSwitcher } from '../../features/tenancy/components/ScopeSwitcher';
import { ensureScope, useActiveScope } from '../../features/tenancy/scope';
import { DeferredTooltip } from '../../shared/ui/DeferredTooltip';
import { useLoadingOverlay } from '../../shared/ui/loadingOverlay';
import { useThemePreference } from '../../shared/ui/themePreference';
import { hasAnyRole } from '../auth/roles';
import { menuRoutes } from '../routes';
import { deferredPart } from './deferredPart';
import { Navigation } from './Navigation';
import classes from './shell.module.css';
import { useStarredPages } from './starredPages';
import { UserMenu } from './UserMenu';
import { usePageTime } from './usePageTime';
import { useSessionLifecycle } from './useSessionLifecycle';

const AlertNotices = deferredPart(() =>
  import('../../features/alerts/components/AlertNotices').then((m) => m.AlertNotices),
);
const MessengerNotices = deferredPart(() =>
  import('../../features/messenger/components/MessengerNotices').then((m) => m.MessengerNotices),
);
const PageSearch = deferredPart(() => import('./PageSearch').then((m) => m.PageSearch));

/** The signed-in console (01 §2): sticky navbar and footer, vertical navigation, page search, user menu. */
export function ConsoleShell() {
  const { t } = useTranslation();
  const { data: user, error: userError } = useQuery(userQuery);
  const scope = useActiveScope();
  const navigation = useNavigation();
  const overlay = useLoadingOverlay();
  const theme = useThemePreference();
  const [navbarOpened, { toggle: toggleNavbar, close: closeNavbar }] = useDisclosure(false);
  // Ctrl/⌘+K works from the first moment: the palette's code loads after the first screen and opens as it
  // arrives (its own shortcut only opens too, so both listening is harmless).
  useHotkeys([['mod + K', () => spotlight.open()]]);

  useSessionLifecycle(user, userError);
  // Page time belongs to a program: a user without one has nowhere to record it.
  usePageTime(user && scope?.program ? { programId: scope.programId, userId: user.id } : null);

  // Roles and programs can change live (AdminProgramRolesUpdated): keep the scope valid for the new user data.
  useEffect(() => {
    if (user) ensureScope(user);
  }, [user]);

  const pages = useMemo(
    () =>
      menuRoutes().filter((route) => !route.roles || (user && scope && hasAnyRole(user, route.roles, scope))),
    [user, scope],
  );
  const starred = useStarredPages(user?.id ?? 0);

  if (!user || !scope) {
    return (
      <Center mih="100dvh">
        <Loader aria-label={t('shell.loading')} />
      </Center>
    );
  }

  const starredPages = pages.filter((route) => starred.pages.includes(route.id));
  return (
    <AppShell
      header={{ height: 64 }}
      footer={{ height: 40 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !navbarOpened } }}
      padding="md"
    >
      <AppShell.Header className={theme === 'semi-dark' ? classes.semiDarkHeader : undefined}>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={navbarOpened}
              onClick={toggleNavbar}
              hiddenFrom="sm"
              size="sm"
              aria-label={t('shell.toggleNavigation')}
            />
            <UnstyledButton component={Link} to="/patients" aria-label={t('app.name')}>
              <Group gap={6} wrap="nowrap">
                <ThemeIcon radius="md" color="primary" aria-hidden className={classes.brandIcon}>
                  <IconHeartbeat size={20} />
                </ThemeIcon>
                <Text fw={700} c="primary" visibleFrom="xs">
                  {t('app.name')}
                </Text>
              </Group>
            </UnstyledButton>
            <Box visibleFrom="md">
              <ScopeSwitcher user={user} scope={scope} />
            </Box>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Button
              variant="default"
              size="xs"
              leftSection={<IconSearch size={14} aria-hidden />}
              rightSection={<Kbd size="xs">{t('search.shortcut')}</Kbd>}
              onClick={() => spotlight.open()}
              visibleFrom="sm"
            >
              {t('search.open')}
            </Button>
            <ActionIcon
              variant="default"
              hiddenFrom="sm"
              aria-label={t('search.open')}
              onClick={() => spotlight.open()}
            >
              <IconSearch size={16} />
            </ActionIcon>
            {starredPages.map((route) => {
              const Icon = route.menu?.icon ?? IconSearch;
              const label = route.menu ? t(route.menu.labelKey) : route.id;
              return (
                <DeferredTooltip key={route.id} label={label}>
                  <ActionIcon component={Link} to={route.path} variant="subtle" aria-label={label}>
                    <Icon size={18} />
                  </ActionIcon>
                </DeferredTooltip>
              );
            })}
            {scope && <NotificationBell programId={scope.programId} />}
            <UserMenu user={user} />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" className={theme === 'semi-dark' ? classes.semiDarkNavbar : undefined}>
        <Box hiddenFrom="md" mb="md">
          <ScopeSwitcher user={user} scope={scope} />
        </Box>
        {/* The navigation scrolls inside the navbar when it is taller than the window. */}
        <AppShell.Section grow component={ScrollArea} type="auto" offsetScrollbars>
          <Navigation pages={pages} onNavigate={closeNavbar} />
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main pos="relative">
        <Suspense fallback={null}>
          <AlertNotices />
          <MessengerNotices />
        </Suspense>
        <LoadingOverlay visible={overlay || navigation.state === 'loading'} zIndex={90} />
        <Outlet />
      </AppShell.Main>

      <AppShell.Footer px="md">
        <Group h="100%" align="center">
          <Text size="xs" c="dimmed">
            {t('shell.footer', { year: new Date().getFullYear() })}
          </Text>
        </Group>
      </AppShell.Footer>

      <Suspense fallback={null}>
        <PageSearch pages={pages} starred={starred.pages} onToggleStar={starred.toggle} />
      </Suspense>
    </AppShell>
  );
}
