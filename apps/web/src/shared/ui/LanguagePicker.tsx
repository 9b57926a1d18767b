import { NativeSelect, type NativeSelectProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { applyLanguage, isLanguage, type Language, SUPPORTED_LANGUAGES } from '../i18n';

export interface LanguagePickerProps extends Omit<NativeSelectProps, 'data' | 'value' | 'onChange'> {
  /** Called after the language is applied (e.g. to save it to the profile). */
  onLanguageChange?: (language: Language) => void;
}

/**
 * The interface language. A native select: four fixed choices need no search, it behaves as every device's own
 * picker (keyboard, screen readers, phones), and the sign-in page does not download a dropdown library for it.
 */
export function LanguagePicker({ onLanguageChange, ...props }: LanguagePickerProps) {
  const { t, i18n } = useTranslation();
  const data = SUPPORTED_LANGUAGES.map((language) => ({
    value: language,
    label: t(`languages.${language}`),
  }));
  return (
    <NativeSelect
      label={t('languages.label')}
      {...props}
      data={data}
      value={isLanguage(i18n.language) ? i18n.language : 'en'}
      onChange={(event) => {
        const value = event.currentTarget.value;
        if (!isLanguage(value)) return;
        // After the switch, so whatever the caller shows (a confirmation toast) is in the new language.
        void applyLanguage(value).then(() => onLanguageChange?.(value));
      }}
    />
  );
}
