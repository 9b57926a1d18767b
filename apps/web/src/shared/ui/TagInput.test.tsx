import { TAG_INPUT_HINT } from '@caredeck/domain';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { i18n } from '../i18n';
import { TagInput } from './TagInput';

function Tags({ onTags, initial = [] }: { onTags: (tags: string[]) => void; initial?: string[] }) {
  const [tags, setTags] = useState<string[]>(initial);
  return (
    <TagInput
      label="Tags"
      value={tags}
      onChange={(next) => {
        setTags(next);
        onTags(next);
      }}
    />
  );
}

describe('TagInput (01 §5)', () => {
  it("says 'Press enter to add tag' and adds the trimmed text on Enter", async () => {
    const onTags = vi.fn();
    renderWithProviders(<Tags onTags={onTags} />);
    const input = screen.getByRole('combobox', { name: 'Tags' });
    expect(input).toHaveAttribute('placeholder', TAG_INPUT_HINT);
    const user = userEvent.setup();
    await user.type(input, '  urgent  {Enter}');
    expect(onTags).toHaveBeenLastCalledWith(['urgent']);
    expect(input).toHaveValue('');
    await user.type(input, 'diabetes{Enter}');
    expect(onTags).toHaveBeenLastCalledWith(['urgent', 'diabetes']);
  });

  it('ignores blank and duplicate tags', async () => {
    const onTags = vi.fn();
    renderWithProviders(<Tags onTags={onTags} initial={['urgent']} />);
    const user = userEvent.setup();
    const input = screen.getByRole('combobox', { name: 'Tags' });
    await user.type(input, '   {Enter}');
    await user.type(input, 'URGENT{Enter}');
    expect(onTags).not.toHaveBeenCalled();
  });

  it('removes a tag with its labelled, keyboard-reachable button', async () => {
    const onTags = vi.fn();
    renderWithProviders(<Tags onTags={onTags} initial={['urgent', 'diabetes']} />);
    const remove = screen.getByRole('button', { name: 'Remove tag urgent' });
    expect(remove).toHaveAttribute('tabindex', '0');
    const user = userEvent.setup();
    remove.focus();
    await user.keyboard('{Enter}');
    expect(onTags).toHaveBeenLastCalledWith(['diabetes']);
  });

  it('speaks the interface language', async () => {
    await i18n.changeLanguage('de');
    renderWithProviders(<Tags onTags={() => {}} />);
    expect(screen.getByRole('combobox', { name: 'Tags' })).toHaveAttribute(
      'placeholder',
      i18n.t('common.tagInputHint'),
    );
    expect(screen.getByRole('combobox', { name: 'Tags' }).getAttribute('placeholder')).not.toBe(
      TAG_INPUT_HINT,
    );
  });
});
