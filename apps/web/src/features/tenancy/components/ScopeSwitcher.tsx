import type { ActiveUser } from '@caredeck/contracts';
import { Group, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type ActiveScope, selectEnterprise, selectProgram } from '../scope';

const NO_ENTERPRISE = '';

/** Program and enterprise switcher (01 §4): choosing an enterprise sets enterprise scope. */
export function ScopeSwitcher({ user, scope }: { user: ActiveUser; scope: ActiveScope }) {
  const { t } = useTranslation();
  const programs = user.programs.map((program) => ({ value: String(program.id), label: program.name }));
  const enterprises = [
    { value: NO_ENTERPRISE, label: t('scope.programScope') },
    ...user.enterprises.map((enterprise) => ({ value: String(enterprise.id), label: enterprise.name })),
  ];
  return (
    <Group gap="xs" wrap="nowrap">
      <Select
        size="xs"
        w={200}
        label={t('scope.program')}
        data={programs}
        value={scope.enterpriseScope ? null : String(scope.programId)}
        placeholder={
          scope.enterpriseScope && scope.enterprise
            ? t('scope.enterpriseScope', { name: scope.enterprise.name })
            : t('scope.none')
        }
        onChange={(value) => {
          if (value) selectProgram(user, Number(value));
        }}
        allowDeselect={false}
        searchable={programs.length > 8}
        data-testid="program-switcher"
      />
      {user.enterprises.length > 0 ? (
        <Select
          size="xs"
          w={200}
          label={t('scope.enterprise')}
          data={enterprises}
          value={scope.enterpriseScope && scope.enterprise ? String(scope.enterprise.id) : NO_ENTERPRISE}
          onChange={(value) => selectEnterprise(user, value ? Number(value) : null)}
          allowDeselect={false}
          data-testid="enterprise-switcher"
        />
      ) : null}
    </Group>
  );
}
