import type { ActiveUser } from '@caredeck/contracts';
import { Group, Radio, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { i18n, type Language } from '../../../../shared/i18n';
import { LanguagePicker } from '../../../../shared/ui/LanguagePicker';
import {
  applyTheme,
  isThemePreference,
  type ThemePreference,
  useThemePreference,
} from '../../../../shared/ui/themePreference';
import { toast, toastErrors } from '../../../../shared/ui/toasts';
import { useUpdateProfile } from '../../api';

const THEME_LABEL_KEYS = { light: 'theme.light', dark: 'theme.dark', 'semi-dark': 'theme.semiDark' } as const;

/** Language and theme apply at once and are saved to the profile (PUT /user with language/theme). */
export function PreferencesForm({ user }: { user: ActiveUser }) {
  const { t } = useTranslation();
  const theme = useThemePreference();
  const update = useUpdateProfile();

  const save = async (changes: { language?: Language; theme?: ThemePreference }) => {
    try {
      await update.mutateAsync({ given_name: user.given_name, family_name: user.family_name, ...changes });
      // The i18n instance, not this render's `t`: a language change has happened since this render.
      toast.success(i18n.t('settings.preferences.saved'));
    } catch (error) {
      toastErrors(error);
    }
  };

  return (
    <Stack gap="md">
      <LanguagePicker w={240} onLanguageChange={(language) => void save({ language })} />
      <Radio.Group
        label={t('theme.label')}
        value={theme}
        onChange={(value) => {
          if (!isThemePreference(value)) return;
          applyTheme(value);
          void save({ theme: value });
        }}
      >
        <Group mt="xs">
          {(Object.keys(THEME_LABEL_KEYS) as ThemePreference[]).map((option) => (
            <Radio key={option} value={option} label={t(THEME_LABEL_KEYS[option])} />
          ))}
        </Group>
      </Radio.Group>
    </Stack>
  );
}
