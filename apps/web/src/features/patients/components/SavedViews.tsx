import { Button, type ButtonProps } from '@mantine/core';
import { IconBookmark } from '@tabler/icons-react';
import type { ComponentPropsWithRef } from 'react';
import { useTranslation } from 'react-i18next';
import { deferredControl } from '../../../shared/ui/deferred';

/** The menu's button: drawn alone until the menu's code has loaded, then as the menu's target. */
export function SavedViewsButton(props: ButtonProps & ComponentPropsWithRef<'button'>) {
  const { t } = useTranslation();
  return (
    <Button
      variant="default"
      leftSection={<IconBookmark size={16} aria-hidden />}
      data-testid="saved-views"
      {...props}
    >
      {t('patients.views.button')}
    </Button>
  );
}

/**
 * The worklist's saved views (issue 7): the filters, search, sort and page size of the list under a name,
 * kept per user and program in user memory (module 'patients'); opening one puts it in the URL. The menu loads
 * after the list has shown (ADR 048).
 */
export const SavedViews = deferredControl<{ programId: number }>(
  () => import('./SavedViewsMenu').then((m) => m.SavedViewsMenu),
  ({ onOpen, onFocus, onBlur }) => (
    <SavedViewsButton onMouseDown={onOpen} onClick={onOpen} onFocus={onFocus} onBlur={onBlur} />
  ),
);
