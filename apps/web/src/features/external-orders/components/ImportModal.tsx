import { Alert, Button, FileInput, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api-client';
import { toast } from '../../../shared/ui/toasts';
import { useExternalOrderMutations } from '../api';

type Result = {
  imported: number;
  duplicates: number;
  updated: number;
  matched: number;
  unmatched_patients: number;
};

/** Row errors of a refused file, in row order: `rows.N.column` → "Row N · column: message". */
function rowErrors(errors: Record<string, string[]>) {
  return Object.entries(errors)
    .map(([key, messages]) => {
      const m = /^rows\.(\d+)(?:\.(.+))?$/.exec(key);
      return { row: m ? Number(m[1]) : 0, column: m ? (m[2] ?? '') : '', messages };
    })
    .sort((a, b) => a.row - b.row);
}

/** Import the pharmacy's CSV: the counts on success, every row error of a refused file (nothing is stored then). */
export function ImportModal({ programId, onClose }: { programId: number; onClose: () => void }) {
  const { t } = useTranslation('externalOrders');
  const { importCsv } = useExternalOrderMutations();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  const [failure, setFailure] = useState<{ message: string; errors: Record<string, string[]> } | null>(null);
  const [missing, setMissing] = useState(false);
  const submit = () => {
    if (!file) {
      setMissing(true);
      return;
    }
    setResult(null);
    setFailure(null);
    importCsv.mutate(
      { programId, file },
      {
        onSuccess: (r) => {
          toast.success(r.message);
          setResult(r);
        },
        onError: (error) =>
          setFailure({
            message: isApiError(error, 413) ? t('import.tooLarge') : error.message,
            errors: isApiError(error) ? error.fieldErrors : {},
          }),
      },
    );
  };
  const errors = failure ? rowErrors(failure.errors) : [];
  return (
    <Modal opened onClose={onClose} title={t('import.title')} size="lg">
      <Stack>
        <Text size="sm" c="dimmed">
          {t('import.hint')}
        </Text>
        <FileInput
          label={t('import.file')}
          accept=".csv,text/csv"
          value={file}
          onChange={(f) => {
            setFile(f);
            setMissing(false);
          }}
          clearable
          required
          error={missing ? t('import.fileRequired') : undefined}
        />
        {result && (
          <Alert color="success" title={t('import.done')} data-testid="import-result">
            <List size="sm">
              <List.Item>{t('import.imported', { count: result.imported })}</List.Item>
              <List.Item>{t('import.duplicates', { count: result.duplicates })}</List.Item>
              <List.Item>{t('import.updated', { count: result.updated })}</List.Item>
              <List.Item>{t('import.matched', { count: result.matched })}</List.Item>
              <List.Item>{t('import.unmatched', { count: result.unmatched_patients })}</List.Item>
            </List>
          </Alert>
        )}
        {failure && (
          <Alert color="danger" role="alert" title={failure.message} data-testid="import-errors">
            <List size="sm">
              {errors.map((e) => (
                <List.Item key={`${e.row}.${e.column}`}>
                  {e.row > 0
                    ? t('import.rowError', {
                        row: e.row,
                        column: e.column || '–',
                        message: e.messages.join(' '),
                      })
                    : e.messages.join(' ')}
                </List.Item>
              ))}
            </List>
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('close')}
          </Button>
          <Button onClick={submit} loading={importCsv.isPending}>
            {t('import.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
