import { Modal, TextInput } from '@mantine/core';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { placeDialogs } from './dialogs';

// jsdom lays nothing out: the dialog is given a box, 400 × 300 at (360, 45) in a 1440 × 900 window, as it opens
// at 25 % from the left and 5 % from the top; the box follows the applied offset.
function giveBox(content: HTMLElement) {
  content.getBoundingClientRect = () => {
    const x = 360 + Number(content.dataset.dragX ?? 0);
    const y = 45 + Number(content.dataset.dragY ?? 0);
    return { left: x, top: y, right: x + 400, bottom: y + 300, width: 400, height: 300, x, y } as DOMRect;
  };
}

function open() {
  renderWithProviders(
    <Modal opened onClose={() => {}} title="Edit the note">
      <TextInput label="Text" />
    </Modal>,
  );
  const dialog = screen.getByRole('dialog', { name: 'Edit the note' });
  const content = dialog.closest<HTMLElement>('.mantine-Modal-content') ?? dialog;
  giveBox(content);
  const header = content.querySelector<HTMLElement>('.mantine-Modal-header');
  if (!header) throw new Error('no header');
  return { content, header };
}

describe('dialogs (spec 01 §9)', () => {
  let remove: () => void;
  beforeEach(() => {
    window.innerWidth = 1440;
    window.innerHeight = 900;
    remove = placeDialogs();
  });
  afterEach(() => remove());

  it('open 25 % from the left, never past the right edge', () => {
    const rule = document.querySelector('style[data-dialogs]')?.textContent ?? '';
    expect(rule).toContain('min(25vw - var(--modal-x-offset, 0px), 100% - var(--modal-size, 100%))');
  });

  it('move by dragging the header with the mouse, kept within the window', () => {
    const { content, header } = open();
    fireEvent.mouseDown(header, { button: 0, clientX: 500, clientY: 60 });
    fireEvent.mouseMove(document, { clientX: 600, clientY: 110 });
    expect(content.style.translate).toBe('100px 50px');
    // Far past the top left corner: stops at the window's edge.
    fireEvent.mouseMove(document, { clientX: -2000, clientY: -2000 });
    expect(content.style.translate).toBe('-360px -45px');
    // Past the bottom right corner: the whole box stays in view.
    fireEvent.mouseMove(document, { clientX: 5000, clientY: 5000 });
    expect(content.style.translate).toBe('680px 555px');
    fireEvent.mouseUp(document);
    fireEvent.mouseMove(document, { clientX: 500, clientY: 60 });
    expect(content.style.translate).toBe('680px 555px');
  });

  it('does not move when a button of the header is pressed (the close button)', () => {
    const { content } = open();
    const close = screen.getByRole('button');
    fireEvent.mouseDown(close, { button: 0, clientX: 500, clientY: 60 });
    fireEvent.mouseMove(document, { clientX: 600, clientY: 110 });
    expect(content.style.translate).toBe('');
  });

  it('move with the arrow keys once the header has focus', () => {
    const { content, header } = open();
    fireEvent.focusIn(screen.getByLabelText('Text'));
    expect(header).toHaveAttribute('tabindex', '0');
    expect(header).toHaveAttribute('title', 'Drag, or use the arrow keys, to move the dialog');
    header.focus();
    fireEvent.keyDown(header, { key: 'ArrowRight' });
    fireEvent.keyDown(header, { key: 'ArrowDown', shiftKey: true });
    expect(content.style.translate).toBe('16px 96px');
    fireEvent.keyDown(header, { key: 'ArrowUp', shiftKey: true });
    fireEvent.keyDown(header, { key: 'ArrowLeft' });
    expect(content.style.translate).toBe('');
    for (let i = 0; i < 30; i++) fireEvent.keyDown(header, { key: 'ArrowLeft', shiftKey: true });
    expect(content.style.translate).toBe('-360px 0px');
  });
});
