import { Box, Center, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconHeartbeat } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface PublicLayoutProps {
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  width?: number;
}

/** The frame of the pages outside the console: sign-in, errors, legal text. */
export function PublicLayout({ title, subtitle, children, footer, width = 440 }: PublicLayoutProps) {
  const { t } = useTranslation();
  return (
    <Center component="main" mih="100dvh" p="md" bg="var(--mantine-color-body)">
      <Box w="100%" maw={width}>
        <Group gap="xs" justify="center" mb="lg">
          <ThemeIcon size="lg" radius="md" color="primary" aria-hidden>
            <IconHeartbeat size={22} />
          </ThemeIcon>
          <Text fw={700} fz="xl" c="primary">
            {t('app.name')}
          </Text>
        </Group>
        <Paper withBorder shadow="sm" radius="md" p="xl">
          <Stack gap="md">
            <div>
              <Title order={1} fz="h3">
                {title}
              </Title>
              {subtitle ? (
                <Text c="dimmed" size="sm" mt={4}>
                  {subtitle}
                </Text>
              ) : null}
            </div>
            {children}
          </Stack>
        </Paper>
        {footer ? <Box mt="md">{footer}</Box> : null}
      </Box>
    </Center>
  );
}
