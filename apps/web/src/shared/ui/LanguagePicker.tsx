import { Select, type SelectProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { applyLanguage, isLanguage, type Language, SUPPORTED_LANGUAGES } from '../i18n';

export interface LanguagePickerProps extends Omit<SelectProps, 'data' | 'value' | 'onChange'> {
  /** Called after the language is applied (e.g. to save it to the profile). */
  onLanguageChange?: (language: Language) => void;
}

export function LanguagePicker({ onLanguageChange, ...props }: LanguagePickerProps) {
  const { t, i18n } = useTranslation();
  const data = SUPPORTED_LANGUAGES.map((language) => ({
    value: language,
    label: t(`languages.${language}`),
  }));
  return (
    <Select
      label={t('languages.label')}
      {...props}
      data={data}
      value={isLanguage(i18n.language) ? i18n.language : 'en'}
      allowDeselect={false}
      onChange={(value) => {
        if (!isLanguage(value)) return;
        // After the switch, so whatever the caller shows (a confirmation toast) is in the new language.
        void applyLanguage(value).then(() => onLanguageChange?.(value));
      }}
    />
  );
}
