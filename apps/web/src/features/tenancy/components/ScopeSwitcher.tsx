import type { ActiveUser } from '@caredeck/contracts';
import { type ComboboxItem, type ComboboxItemGroup, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DeferredSelect } from '../../../shared/ui/DeferredSelect';
import { type ActiveScope, enterprisesWithScope, selectEnterprise, selectProgram } from '../scope';

const ENTERPRISE = 'e:';
const PROGRAM = 'p:';

/**
 * Where the user works (01 §4), in one control: each program, and "All programs of …" for an enterprise
 * where the user sees more than one program. Shown only when there is a choice; otherwise the program's
 * name, so the user still knows where they are.
 */
export function ScopeSwitcher({ user, scope }: { user: ActiveUser; scope: ActiveScope }) {
  const { t } = useTranslation();
  const wide = new Set(enterprisesWithScope(user).map((enterprise) => enterprise.id));
  const groups: ComboboxItemGroup<ComboboxItem>[] = [];
  for (const enterprise of user.enterprises) {
    const programs = user.programs.filter((program) => program.enterprise_id === enterprise.id);
    if (programs.length === 0) continue;
    groups.push({
      group: enterprise.name,
      items: [
        ...(wide.has(enterprise.id)
          ? [
              {
                value: `${ENTERPRISE}${enterprise.id}`,
                label: t('scope.allPrograms', { name: enterprise.name }),
              },
            ]
          : []),
        ...programs.map((program) => ({ value: `${PROGRAM}${program.id}`, label: program.name })),
      ],
    });
  }
  const loose = user.programs.filter(
    (program) => !user.enterprises.some((enterprise) => enterprise.id === program.enterprise_id),
  );
  if (loose.length > 0)
    groups.push({
      group: t('scope.otherPrograms'),
      items: loose.map((program) => ({ value: `${PROGRAM}${program.id}`, label: program.name })),
    });
  const choices = groups.reduce((n, group) => n + group.items.length, 0);

  if (choices <= 1) {
    return (
      <Text size="sm" fw={500} data-testid="scope-current" truncate maw={240}>
        {scope.program?.name ?? t('scope.none')}
      </Text>
    );
  }
  const value =
    scope.enterpriseScope && scope.enterprise
      ? `${ENTERPRISE}${scope.enterprise.id}`
      : `${PROGRAM}${scope.programId}`;
  return (
    <DeferredSelect
      size="xs"
      w={260}
      label={t('scope.label')}
      data={groups}
      value={value}
      onChange={(next) => {
        if (!next) return;
        const id = Number(next.slice(2));
        if (next.startsWith(ENTERPRISE)) selectEnterprise(user, id);
        else selectProgram(user, id);
      }}
      allowDeselect={false}
      searchable={choices > 8}
      comboboxProps={{ width: 320, position: 'bottom-start' }}
      data-testid="scope-switcher"
    />
  );
}
