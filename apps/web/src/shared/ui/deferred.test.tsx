import { Button } from '@mantine/core';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { controlsLoaded, renderWithProviders } from '../../test/render';
import { DeferredMultiSelect, DeferredSelect } from './DeferredSelect';
import { type DeferredProps, deferredControl, deferredDialog, type PlaceholderProps } from './deferred';

/** A control's code, released by the test. */
function controlledLoad<C>(component: C) {
  let release: () => void = () => {};
  const arrived = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    load: async () => {
      await arrived;
      return component;
    },
    release: () => act(async () => release()),
  };
}

function RealToggle({ opening, focused }: DeferredProps) {
  const [open, setOpen] = useState(opening);
  return (
    <Button autoFocus={focused} onClick={() => setOpen(!open)}>
      {open ? 'Real, open' : 'Real, closed'}
    </Button>
  );
}

function ToggleLookAlike({ onOpen, onFocus, onBlur }: PlaceholderProps) {
  return (
    <Button onClick={onOpen} onFocus={onFocus} onBlur={onBlur}>
      Placeholder
    </Button>
  );
}

describe('a deferred control', () => {
  it('draws its placeholder, then the real control once its code has loaded after the first render', async () => {
    const code = controlledLoad(RealToggle);
    const load = vi.fn(code.load);
    const Toggle = deferredControl<object>(load, ToggleLookAlike);
    renderWithProviders(<Toggle />);
    expect(screen.getByRole('button', { name: 'Placeholder' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
    await code.release();
    expect(await screen.findByRole('button', { name: 'Real, closed' })).toBeInTheDocument();
  });

  it('opens the real control on arrival when the placeholder was clicked, and gives it the focus', async () => {
    const code = controlledLoad(RealToggle);
    const Toggle = deferredControl<object>(code.load, ToggleLookAlike);
    renderWithProviders(<Toggle />);
    await userEvent.click(screen.getByRole('button', { name: 'Placeholder' }));
    await code.release();
    const real = await screen.findByRole('button', { name: 'Real, open' });
    expect(real).toHaveFocus();
  });

  it('keeps its placeholder when its code cannot be loaded, and tries again on the next click', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce(RealToggle);
    const Toggle = deferredControl<object>(load, ToggleLookAlike);
    renderWithProviders(<Toggle />);
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('A control could not be loaded', expect.any(Error)),
    );
    expect(screen.getByRole('button', { name: 'Placeholder' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Placeholder' }));
    expect(await screen.findByRole('button', { name: 'Real, open' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });
});

function Dialog({ opened }: { opened: boolean }) {
  return opened ? <div role="dialog">Dialog</div> : null;
}

describe('a deferred dialog', () => {
  it('draws nothing until opened, and shows once its code is there if opened before', async () => {
    const code = controlledLoad(Dialog);
    const Deferred = deferredDialog(code.load);
    const { rerender } = renderWithProviders(<Deferred opened={false} />);
    rerender(<Deferred opened />);
    expect(screen.queryByRole('dialog')).toBeNull();
    await code.release();
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
  });
});

/**
 * The field as it shows: its elements, classes, styles and attributes, without what does not show (the closed
 * dropdown Mantine keeps in tests, the form's hidden input), Mantine's per-component static class names and
 * generated ids, and with the attributes in one order.
 */
function drawn(root: HTMLElement): string {
  const clone = root.cloneNode(true) as HTMLElement;
  for (const hidden of clone.querySelectorAll('[style*="display: none"], input[type="hidden"]'))
    hidden.remove();
  for (const element of [clone, ...clone.querySelectorAll<HTMLElement>('*')]) {
    const classes = [...element.classList].filter((name) => !/^mantine-[A-Za-z]+-/.test(name));
    const attributes = [...element.attributes]
      .filter(
        (attribute) =>
          !['id', 'for', 'aria-describedby', 'aria-labelledby', 'class'].includes(attribute.name),
      )
      .filter((attribute) => !(attribute.name === 'value' && attribute.value === ''))
      .map((attribute) => [attribute.name, attribute.value] as const)
      .sort(([a], [b]) => a.localeCompare(b));
    for (const attribute of [...element.attributes]) element.removeAttribute(attribute.name);
    for (const [name, value] of attributes) element.setAttribute(name, value);
    if (classes.length > 0) element.setAttribute('class', classes.join(' '));
  }
  return clone.outerHTML;
}

const STATUSES = [
  { value: 'active', label: 'Active' },
  { value: 'pending', label: 'Pending' },
];

describe('the deferred selects', () => {
  it('draw the same field before and after their code has loaded', async () => {
    const view = renderWithProviders(
      <>
        <div data-testid="single">
          <DeferredSelect label="Assigned" data={STATUSES} value="pending" clearable size="xs" w={150} />
        </div>
        <div data-testid="empty">
          <DeferredSelect
            label="Cohort"
            placeholder="Any"
            data={STATUSES}
            value={null}
            searchable
            size="xs"
          />
        </div>
        <div data-testid="multi">
          <DeferredMultiSelect
            label="Status"
            data={STATUSES}
            value={['active', 'pending']}
            clearable
            size="xs"
          />
        </div>
        <div data-testid="multi-empty">
          <DeferredMultiSelect label="Sex" placeholder="Any" data={STATUSES} value={[]} size="xs" />
        </div>
      </>,
    );
    const fields = ['single', 'empty', 'multi', 'multi-empty'];
    const before = fields.map((id) => drawn(screen.getByTestId(id)));
    await controlsLoaded();
    const after = fields.map((id) => drawn(screen.getByTestId(id)));
    expect(screen.getByRole('combobox', { name: 'Assigned' })).toHaveValue('Pending');
    expect(after).toEqual(before);
    view.unmount();
  });
});
