import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../shared/ui/toasts';
import { messenger } from '../api';
import '../i18n';

/** A file of a conversation, downloaded (under its own name) when clicked. */
export function FileLink({
  conversationId,
  file,
}: {
  conversationId: number;
  file: { id: number; file_name: string };
}) {
  const { t } = useTranslation('messenger');
  return (
    <Anchor
      component="button"
      type="button"
      size="sm"
      onClick={() =>
        void messenger.download(conversationId, file.id).catch(() => toast.error(t('errors.download')))
      }
    >
      {file.file_name}
    </Anchor>
  );
}
