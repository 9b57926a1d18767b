import type { ActiveUser } from '@caredeck/contracts';
import { Avatar, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconLogout, IconSettings } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { signOut } from '../auth/signOut';
import classes from './shell.module.css';

function initials(user: ActiveUser): string {
  return `${user.given_name.charAt(0)}${user.family_name.charAt(0)}`.toUpperCase();
}

/** The user menu of the navbar: settings and sign out. */
export function UserMenu({ user }: { user: ActiveUser }) {
  const { t } = useTranslation();
  const name = `${user.given_name} ${user.family_name}`.trim();
  return (
    <Menu position="bottom-end" width={220} withinPortal>
      <Menu.Target>
        {/* Named by what it shows (WCAG 2.5.3 label in name): the user's name, then what the button opens. */}
        <UnstyledButton data-testid="user-menu">
          <Group gap="xs" wrap="nowrap">
            <Avatar src={user.picture} alt="" radius="xl" size="sm" color="primary" aria-hidden>
              {initials(user)}
            </Avatar>
            <Text size="sm" fw={500} truncate className={classes.userName}>
              {name}
            </Text>
            <VisuallyHidden>{t('shell.userMenu')}</VisuallyHidden>
            <IconChevronDown size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('shell.signedInAs', { name: user.email })}</Menu.Label>
        <Menu.Item component={Link} to="/settings" leftSection={<IconSettings size={16} aria-hidden />}>
          {t('shell.settings')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="danger"
          leftSection={<IconLogout size={16} aria-hidden />}
          onClick={() => void signOut()}
          data-testid="sign-out"
        >
          {t('shell.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
