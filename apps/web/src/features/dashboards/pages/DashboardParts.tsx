import { Paper, Skeleton, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Bars } from '../../data-views/components/Bars';
import '../i18n';

/** A figure of a dashboard, with a skeleton while it loads. */
export function FactTile({ label, value, id }: { label: string; value: number | undefined; id: string }) {
  const { i18n } = useTranslation();
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {value === undefined ? (
        <Skeleton height={28} mt={4} width={60} />
      ) : (
        <Text fw={700} fz={28} lh={1.2} data-testid={`dashboard-${id}`}>
          {new Intl.NumberFormat(i18n.language).format(value)}
        </Text>
      )}
    </Paper>
  );
}

/** A fact per day as bars (the data views' chart), with its total in the title. */
export function FactChart({
  title,
  name,
  data,
  color,
}: {
  title: string;
  /** What one bar counts, in its tooltip ("Nov 24: Readings 12"). */
  name: string;
  data: { date: string; value: number }[] | undefined;
  color: string;
}) {
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} fz="h5" mb="sm">
        {title}
      </Title>
      {!data ? (
        <Skeleton height={150} />
      ) : (
        <Bars days={data} series={[{ key: 'value', label: name, color }]} label={title} />
      )}
    </Paper>
  );
}
