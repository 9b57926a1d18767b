import type { ActiveUser } from '@caredeck/contracts';
import { Menu } from '@mantine/core';
import { IconLogout, IconSettings } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { DeferredProps } from '../../shared/ui/deferred';
import { signOut } from '../auth/signOut';
import { UserButton } from './UserMenu';

/** The user menu's dropdown around its button (UserMenu draws the button alone until this has loaded). */
export function UserMenuDropdown({ user, opening, focused }: { user: ActiveUser } & DeferredProps) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" width={220} withinPortal defaultOpened={opening}>
      <Menu.Target>
        <UserButton user={user} autoFocus={focused} />
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
