import { useTranslation } from 'react-i18next';
import { LegalDocument } from '../components/LegalDocument';

/** /privacy: public privacy policy, linked from the sign-in page (01 §7). */
export function PrivacyPage() {
  const { t } = useTranslation();
  return (
    <LegalDocument
      title={t('legal.privacy.title')}
      intro={t('legal.privacy.intro')}
      sections={[
        { title: t('legal.privacy.collectTitle'), body: t('legal.privacy.collect') },
        { title: t('legal.privacy.useTitle'), body: t('legal.privacy.use') },
        { title: t('legal.privacy.shareTitle'), body: t('legal.privacy.share') },
        { title: t('legal.privacy.securityTitle'), body: t('legal.privacy.security') },
        { title: t('legal.privacy.retentionTitle'), body: t('legal.privacy.retention') },
        { title: t('legal.privacy.rightsTitle'), body: t('legal.privacy.rights') },
        { title: t('legal.privacy.contactTitle'), body: t('legal.privacy.contact') },
      ]}
    />
  );
}
