import '@mantine/spotlight/styles.css';
import { STARRED_PAGES_LIMIT } from '@caredeck/domain';
import { ActionIcon, Box, Group, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Spotlight } from '@mantine/spotlight';
import { IconSearch, IconStar, IconStarFilled, IconUser } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePatientFinder } from '../../features/patients/finder';
import { identityDate } from '../../shared/ui/notProvided';
import { toast } from '../../shared/ui/toasts';
import type { AppRoute } from '../routeTypes';
import type { StarResult } from './starredPages';

export interface PageSearchProps {
  /** The console's real screens the user may open (from the route table). */
  pages: readonly AppRoute[];
  starred: readonly string[];
  onToggleStar: (routeId: string) => StarResult;
}

/** A labelled group of results (Mantine's own group label is CSS-only, invisible to screen readers). */
function PageGroup({ label, children }: { label: string; children: ReactNode[] }) {
  if (children.length === 0) return null;
  return (
    <Box role="group" aria-label={label} mb="xs">
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" py={4}>
        {label}
      </Text>
      {children}
    </Box>
  );
}

/** Patients by name, MRN or birth date (YYYY-MM-DD) across the user's programs, once two characters are typed. */
function PatientResults({ query }: { query: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [debounced] = useDebouncedValue(query.trim(), 300);
  const found = usePatientFinder(debounced);
  if (debounced.length < 2) return null;
  const rows = found.data?.data ?? [];
  if (found.isPending) {
    return (
      <Text size="sm" c="dimmed" px="sm" py={4} role="status">
        {t('search.patientsLoading')}
      </Text>
    );
  }
  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed" px="sm" py={4} data-testid="palette-no-patient">
        {t('search.noPatient')}
      </Text>
    );
  }
  return (
    <PageGroup label={t('search.patients')}>
      {rows.map((patient) => (
        <Spotlight.Action
          key={patient.id}
          label={patient.name}
          description={[patient.mrn, patient.dob ? identityDate(patient.dob) : null, patient.program.name]
            .filter(Boolean)
            .join(' · ')}
          leftSection={<IconUser size={18} aria-hidden />}
          onClick={() => navigate(`/patient/${patient.id}`)}
          data-testid="palette-patient"
        />
      ))}
    </PageGroup>
  );
}

/** The page search (01 §2) as a command palette: Ctrl/⌘ + K, starred pages first, then matching patients. */
export function PageSearch({ pages, starred, onToggleStar }: PageSearchProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');

  const labelOf = (route: AppRoute) => (route.menu ? t(route.menu.labelKey) : route.id);
  const needle = query.trim().toLowerCase();
  const matching = pages.filter((route) => needle === '' || labelOf(route).toLowerCase().includes(needle));
  const starredPages = matching.filter((route) => starred.includes(route.id));
  const otherPages = matching.filter((route) => !starred.includes(route.id));

  const toggle = (route: AppRoute) => {
    if (onToggleStar(route.id) === 'limitReached') {
      toast.warning(t('search.starLimit', { max: STARRED_PAGES_LIMIT }));
    }
  };

  const renderPage = (route: AppRoute) => {
    const isStarred = starred.includes(route.id);
    const Icon = route.menu?.icon ?? IconSearch;
    const label = labelOf(route);
    return (
      <Group key={route.id} gap={4} wrap="nowrap">
        <Spotlight.Action
          style={{ flex: 1 }}
          label={label}
          description={route.path}
          leftSection={<Icon size={18} aria-hidden />}
          onClick={() => navigate(route.path)}
        />
        <ActionIcon
          variant="subtle"
          color={isStarred ? 'warning' : 'gray'}
          aria-pressed={isStarred}
          aria-label={isStarred ? t('search.unstar', { page: label }) : t('search.star', { page: label })}
          onClick={() => toggle(route)}
        >
          {isStarred ? <IconStarFilled size={16} /> : <IconStar size={16} />}
        </ActionIcon>
      </Group>
    );
  };

  return (
    <Spotlight.Root query={query} onQueryChange={setQuery} shortcut={['mod + K']} scrollable>
      <Spotlight.Search
        placeholder={t('search.placeholder')}
        aria-label={t('search.open')}
        leftSection={<IconSearch size={18} aria-hidden />}
      />
      <Spotlight.ActionsList>
        <PageGroup label={t('search.starred')}>{starredPages.map(renderPage)}</PageGroup>
        <PageGroup label={t('search.pages')}>{otherPages.map(renderPage)}</PageGroup>
        <PatientResults query={query} />
        {matching.length === 0 ? <Spotlight.Empty>{t('search.nothingFound')}</Spotlight.Empty> : null}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
