import { useTranslation } from 'react-i18next';
import { LegalDocument } from '../components/LegalDocument';

/** /terms: public terms of use, linked from the sign-in page (01 §7). */
export function TermsPage() {
  const { t } = useTranslation();
  return (
    <LegalDocument
      title={t('legal.terms.title')}
      intro={t('legal.terms.intro')}
      sections={[
        { title: t('legal.terms.useTitle'), body: t('legal.terms.use') },
        { title: t('legal.terms.accountTitle'), body: t('legal.terms.account') },
        { title: t('legal.terms.dataTitle'), body: t('legal.terms.data') },
        { title: t('legal.terms.availabilityTitle'), body: t('legal.terms.availability') },
        { title: t('legal.terms.changesTitle'), body: t('legal.terms.changes') },
        { title: t('legal.terms.contactTitle'), body: t('legal.terms.contact') },
      ]}
    />
  );
}
