import type { ActiveUser } from '@caredeck/contracts';
import { Avatar, Group, Text, UnstyledButton, type UnstyledButtonProps, VisuallyHidden } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { ComponentPropsWithRef } from 'react';
import { useTranslation } from 'react-i18next';
import { deferredControl } from '../../shared/ui/deferred';
import classes from './shell.module.css';

function initials(user: ActiveUser): string {
  return `${user.given_name.charAt(0)}${user.family_name.charAt(0)}`.toUpperCase();
}

/** The user menu's button: the user's initials or picture and name. */
export function UserButton({
  user,
  ...props
}: { user: ActiveUser } & UnstyledButtonProps & ComponentPropsWithRef<'button'>) {
  const { t } = useTranslation();
  const name = `${user.given_name} ${user.family_name}`.trim();
  return (
    // Named by what it shows (WCAG 2.5.3 label in name): the user's name, then what the button opens.
    <UnstyledButton data-testid="user-menu" {...props}>
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
  );
}

/** The user menu of the navbar: settings and sign out. Its dropdown loads after the first screen (ADR 048). */
export const UserMenu = deferredControl<{ user: ActiveUser }>(
  () => import('./UserMenuDropdown').then((m) => m.UserMenuDropdown),
  ({ user, onOpen, onFocus, onBlur }) => (
    <UserButton user={user} onMouseDown={onOpen} onClick={onOpen} onFocus={onFocus} onBlur={onBlur} />
  ),
);
