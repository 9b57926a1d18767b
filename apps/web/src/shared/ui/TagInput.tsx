import { Pill, TagsInput, type TagsInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface TagInputProps
  extends Omit<TagsInputProps, 'value' | 'defaultValue' | 'onChange' | 'placeholder' | 'renderPill'> {
  value: string[];
  onChange: (tags: string[]) => void;
  /** Accessible label (required: every input is labelled). */
  label: string;
}

/**
 * The console's one tag input (01 §5): 'Press enter to add tag'. A tag is trimmed, a blank one is ignored and a
 * tag already present (in any case) is not added twice. Each tag's remove button is labelled and reachable by
 * keyboard; Backspace in the empty input removes the last tag.
 */
export function TagInput({ value, onChange, label, disabled, readOnly, ...props }: TagInputProps) {
  const { t } = useTranslation();
  return (
    <TagsInput
      {...props}
      label={label}
      value={value}
      onChange={onChange}
      disabled={disabled}
      readOnly={readOnly}
      placeholder={t('common.tagInputHint')}
      renderPill={({ value: tag, onRemove, disabled: locked }) => (
        <Pill
          withRemoveButton={!locked}
          onRemove={onRemove}
          removeButtonProps={{
            // Mantine hides the remove button from assistive technology and the tab order: keep it usable.
            'aria-hidden': false,
            tabIndex: 0,
            'aria-label': t('common.removeTag', { tag }),
          }}
        >
          {tag}
        </Pill>
      )}
    />
  );
}
