import type { ExternalPatient, MatchCandidate } from '@caredeck/contracts';
import { Alert, Badge, Button, Group, Loader, Modal, Radio, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../shared/ui/NameModal';
import { useExternalOrderMutations, useMatches } from '../api';

/** The CareDeck patients who may be this pharmacy patient, with why; linking is confirmed first. */
export function MatchModal({ external, onClose }: { external: ExternalPatient; onClose: () => void }) {
  const { t } = useTranslation('externalOrders');
  const matches = useMatches(external.id);
  const { merge } = useExternalOrderMutations();
  const [chosen, setChosen] = useState<string>('');
  const [confirming, setConfirming] = useState(false);
  const candidates: MatchCandidate[] = matches.data?.data ?? [];
  const candidate = candidates.find((c) => String(c.id) === chosen);
  const pharmacyName = `${external.first_name} ${external.last_name}`;
  return (
    <Modal opened onClose={onClose} title={t('match.title', { name: pharmacyName })} size="lg">
      <Stack>
        <Text size="sm">
          {t('match.pharmacyPatient', {
            id: external.pharmacy_patient_id,
            dob: external.dob,
            phone: external.phone ?? '–',
          })}
        </Text>
        {matches.isError ? (
          <Alert color="danger" role="alert">
            {t('loadError')}
          </Alert>
        ) : !matches.data ? (
          <Loader aria-label={t('loading')} />
        ) : candidates.length === 0 ? (
          <Text c="dimmed">{t('match.none')}</Text>
        ) : (
          <Radio.Group value={chosen} onChange={setChosen} label={t('match.choose')}>
            <Table mt="xs" data-testid="match-candidates">
              <Table.Tbody>
                {candidates.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td>
                      <Radio value={String(c.id)} label={`${c.first_name} ${c.last_name}`} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs">{[c.dob, c.mrn, c.phone_number].filter(Boolean).join(' · ')}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {c.reasons.map((r) => (
                          <Badge key={r} variant="light" color="primary" size="sm">
                            {t(`match.reasons.${r}`)}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Radio.Group>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('close')}
          </Button>
          <Button disabled={!candidate} onClick={() => setConfirming(true)}>
            {t('match.link')}
          </Button>
        </Group>
      </Stack>
      {confirming && candidate && (
        <ConfirmModal
          title={t('match.confirmTitle')}
          body={
            <Text size="sm">
              {t('match.confirmBody', {
                pharmacy: pharmacyName,
                patient: `${candidate.first_name} ${candidate.last_name}`,
              })}
            </Text>
          }
          confirm={t('match.link')}
          onClose={() => setConfirming(false)}
          onConfirm={async () => {
            const r = await merge.mutateAsync({ externalId: external.id, patientId: candidate.id });
            onClose();
            return r;
          }}
        />
      )}
    </Modal>
  );
}
