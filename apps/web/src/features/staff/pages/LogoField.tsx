import { Avatar, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { logoDataUrl } from '../logo';

/**
 * A logo picker: the current logo (or none), choose a PNG, JPEG or WebP of at most 256 KB, or remove it.
 * `value`: undefined = unchanged, null = remove, a data URL = the new picture.
 */
export function LogoField({
  current,
  value,
  onChange,
  label,
}: {
  current: string | null;
  value: string | null | undefined;
  onChange: (value: string | null | undefined) => void;
  label: string;
}) {
  const { t } = useTranslation('staff');
  const [problem, setProblem] = useState<string | null>(null);
  const shown = value === undefined ? current : value;
  const choose = async (file: File | null) => {
    if (!file) return;
    const read = await logoDataUrl(file);
    if ('error' in read) {
      setProblem(t(`logo.${read.error}`));
      return;
    }
    setProblem(null);
    onChange(read.url);
  };
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group gap="sm">
        <Avatar src={shown} alt={shown ? label : undefined} radius="sm" size="lg">
          <IconPhoto size={20} aria-hidden />
        </Avatar>
        <FileButton onChange={(f) => void choose(f)} accept="image/png,image/jpeg,image/webp">
          {(props) => (
            <Button variant="default" size="xs" {...props} data-testid="logo-choose">
              {t('logo.choose')}
            </Button>
          )}
        </FileButton>
        {shown ? (
          <Button variant="subtle" color="danger" size="xs" onClick={() => onChange(null)}>
            {t('logo.remove')}
          </Button>
        ) : null}
      </Group>
      <Text
        size="xs"
        c={problem ? 'var(--mantine-color-error)' : 'dimmed'}
        role={problem ? 'alert' : undefined}
      >
        {problem ?? t('logo.hint')}
      </Text>
    </Stack>
  );
}
