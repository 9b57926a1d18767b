import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguagePicker } from '../../../shared/ui/LanguagePicker';
import { LegalLinks } from '../../../shared/ui/LegalLinks';
import { PublicLayout } from '../../../shared/ui/PublicLayout';

export interface LegalSection {
  title: string;
  body: string;
}

export interface LegalDocumentProps {
  title: string;
  intro: string;
  sections: readonly LegalSection[];
}

/** When the legal texts last changed (shown on both pages). */
export const LEGAL_TEXT_DATE = '2026-01-15';

export function LegalDocument({ title, intro, sections }: LegalDocumentProps) {
  const { t, i18n } = useTranslation();
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${LEGAL_TEXT_DATE}T00:00:00Z`),
  );
  return (
    <PublicLayout
      title={title}
      subtitle={t('legal.lastUpdated', { date })}
      width={760}
      footer={
        <Stack gap="sm" align="center">
          <LanguagePicker size="xs" w={180} />
          <LegalLinks />
        </Stack>
      }
    >
      <Text>{intro}</Text>
      {sections.map((section) => (
        <section key={section.title}>
          <Title order={2} fz="h5" mb={4}>
            {section.title}
          </Title>
          <Text size="sm">{section.body}</Text>
        </section>
      ))}
      <Anchor component={Link} to="/login" size="sm">
        {t('legal.backToSignIn')}
      </Anchor>
    </PublicLayout>
  );
}
