import type { ContentCategory, ContentFolder, TextMessageTemplate } from '@caredeck/contracts';
import { useTranslation } from 'react-i18next';
import { ConfirmModal, NameModal } from '../../../shared/ui/NameModal';
import { contentCalls } from '../api';
import { ContentModal, TemplateModal } from './ContentForms';

/** The dialog open on /content: one at a time. */
export type Dialog =
  | { kind: 'category' }
  | { kind: 'content'; category: ContentCategory }
  | { kind: 'renameCategory'; category: ContentCategory }
  | { kind: 'deleteCategory'; category: ContentCategory }
  | { kind: 'folder' }
  | { kind: 'renameFolder'; folder: ContentFolder }
  | { kind: 'deleteFolder'; folder: ContentFolder }
  | { kind: 'template'; folder: ContentFolder; template: TextMessageTemplate | null }
  | { kind: 'deleteTemplate'; template: TextMessageTemplate };

/** The /content page's dialogs: create, rename and delete categories, folders and text messages. */
export function ContentDialogs({
  dialog,
  programId,
  close,
}: {
  dialog: Dialog;
  programId: number;
  close: () => void;
}) {
  const { t } = useTranslation('content');
  return (
    <>
      {dialog?.kind === 'category' && (
        <NameModal
          title={t('library.newCategory')}
          label={t('library.categoryName')}
          onClose={close}
          onSave={(name) => contentCalls.createCategory(programId, name)}
        />
      )}
      {dialog?.kind === 'content' && (
        <ContentModal
          categoryName={dialog.category.name}
          onClose={close}
          onSave={(body) => contentCalls.createContent(dialog.category.id, body)}
        />
      )}
      {dialog?.kind === 'renameCategory' && (
        <NameModal
          title={t('library.renameCategory')}
          label={t('library.categoryName')}
          initial={dialog.category.name}
          onClose={close}
          onSave={(name) => contentCalls.renameCategory(dialog.category.id, name)}
        />
      )}
      {dialog?.kind === 'deleteCategory' && (
        <ConfirmModal
          title={t('library.deleteCategoryTitle', { name: dialog.category.name })}
          body={t('library.deleteCategoryBody', { count: dialog.category.contents.length })}
          onClose={close}
          onConfirm={() => contentCalls.deleteCategory(dialog.category.id)}
        />
      )}
      {dialog?.kind === 'folder' && (
        <NameModal
          title={t('templates.newFolder')}
          label={t('templates.folderName')}
          onClose={close}
          onSave={(name) => contentCalls.createFolder(programId, name)}
        />
      )}
      {dialog?.kind === 'renameFolder' && (
        <NameModal
          title={t('templates.renameFolder')}
          label={t('templates.folderName')}
          initial={dialog.folder.name}
          onClose={close}
          onSave={(name) => contentCalls.renameFolder(dialog.folder.id, name)}
        />
      )}
      {dialog?.kind === 'deleteFolder' && (
        <ConfirmModal
          title={t('templates.deleteFolderTitle', { name: dialog.folder.name })}
          body={t('templates.deleteFolderBody', { count: dialog.folder.text_messages.length })}
          onClose={close}
          onConfirm={() => contentCalls.deleteFolder(dialog.folder.id)}
        />
      )}
      {dialog?.kind === 'template' && (
        <TemplateModal
          initial={dialog.template}
          onClose={close}
          onSave={(body) =>
            dialog.template
              ? contentCalls.updateTemplate(dialog.template.id, body)
              : contentCalls.createTemplate(dialog.folder.id, body)
          }
        />
      )}
      {dialog?.kind === 'deleteTemplate' && (
        <ConfirmModal
          title={t('templates.deleteTitle', { name: dialog.template.name })}
          body={t('templates.deleteBody')}
          onClose={close}
          onConfirm={() => contentCalls.deleteTemplate(dialog.template.id)}
        />
      )}
    </>
  );
}
