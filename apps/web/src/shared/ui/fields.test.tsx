import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { i18n, loadLanguage } from '../i18n';
import { DateField } from './DateField';
import { TextAreaField } from './TextAreaField';
import { PasswordField, TextField } from './TextField';

function Fields({ onDate }: { onDate: (value: string) => void }) {
  const [name, setName] = useState('');
  const [secret, setSecret] = useState('');
  const [date, setDate] = useState('');
  return (
    <>
      <TextField label="Name" required value={name} onChange={setName} />
      <PasswordField label="Secret" value={secret} onChange={setSecret} />
      <DateField
        label="Day"
        min="2026-01-01"
        max="2026-12-31"
        value={date}
        onChange={(value) => {
          setDate(value);
          onDate(value);
        }}
      />
    </>
  );
}

/** A required date field that still shows a form error from before the user typed. */
function Required() {
  const [value, setValue] = useState('');
  return (
    <DateField label="Born" required value={value} onChange={setValue} error="This field is required." />
  );
}

describe('form fields (01 §5)', () => {
  it('trims text on blur but never a password, and stars required fields', async () => {
    renderWithProviders(<Fields onDate={() => {}} />);
    const name = screen.getByLabelText(/^Name/);
    await userEvent.type(name, '  Ada  ');
    fireEvent.blur(name);
    expect(name).toHaveValue('Ada');
    expect(name).toBeRequired();
    expect(document.querySelector('.mantine-InputWrapper-required')).toHaveTextContent('*');
    const secret = screen.getByLabelText('Secret');
    await userEvent.type(secret, ' pass ');
    fireEvent.blur(secret);
    expect(secret).toHaveValue(' pass ');
  });

  it("shows 'Not Provided' in a read-only field without a value, and never changes it on blur", () => {
    const onChange = vi.fn();
    renderWithProviders(
      <>
        <TextField label="Phone" readOnly value="  " onChange={onChange} />
        <TextAreaField label="About" readOnly value="" onChange={onChange} />
        <TextField label="Email" readOnly value="ada@example.org" onChange={onChange} />
      </>,
    );
    expect(screen.getByLabelText('Phone')).toHaveValue('Not Provided');
    expect(screen.getByLabelText('About')).toHaveValue('Not Provided');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.org');
    fireEvent.blur(screen.getByLabelText('Phone'));
    fireEvent.blur(screen.getByLabelText('About'));
    expect(onChange).not.toHaveBeenCalled();
  });

  it.each([['11/21/2026'], ['2026-11-21']])('reads the date %s in English', async (typed) => {
    const onDate = vi.fn();
    renderWithProviders(<Fields onDate={onDate} />);
    const day = screen.getByLabelText('Day');
    await userEvent.type(day, typed);
    fireEvent.blur(day);
    expect(onDate).toHaveBeenLastCalledWith('2026-11-21');
  });

  it('refuses dates it cannot read or outside the bounds', async () => {
    renderWithProviders(<Fields onDate={() => {}} />);
    const day = screen.getByLabelText('Day');
    for (const typed of ['2026/11/21', '21.11.2026', '21-11-2026', '11/21/26']) {
      await userEvent.clear(day);
      await userEvent.type(day, typed);
      fireEvent.blur(day);
      expect(screen.getByText('Enter the date as MM/DD/YYYY.')).toBeInTheDocument();
    }
    await userEvent.clear(day);
    await userEvent.type(day, '12/31/2025');
    fireEvent.blur(day);
    expect(screen.getByText('The date must be on or after 01/01/2026.')).toBeInTheDocument();
  });

  it('shows in words the day that will be saved, in the order the console shows dates (ADR 054)', async () => {
    const onDate = vi.fn();
    renderWithProviders(<Fields onDate={onDate} />);
    const day = screen.getByLabelText('Day');
    expect(day).toHaveAttribute('placeholder', 'MM/DD/YYYY');
    await userEvent.type(day, '4/1/2026');
    fireEvent.blur(day);
    expect(onDate).toHaveBeenLastCalledWith('2026-04-01');
    expect(screen.getByText('Saved as April 1, 2026')).toBeInTheDocument();
    expect(day).toHaveValue('04/01/2026');
  });

  it('shows the saved day again in the new order when the language changes', async () => {
    await loadLanguage('de');
    renderWithProviders(<Fields onDate={() => {}} />);
    const day = screen.getByLabelText('Day');
    await userEvent.type(day, '04/12/2026');
    fireEvent.blur(day);
    expect(day).toHaveValue('04/12/2026');
    await act(() => i18n.changeLanguage('de'));
    expect(day).toHaveValue('12.04.2026');
    expect(screen.getByText('Wird gespeichert als 12. April 2026')).toBeInTheDocument();
  });

  it('reads the day first in French, and says so in words', async () => {
    await loadLanguage('fr');
    await i18n.changeLanguage('fr');
    const onDate = vi.fn();
    renderWithProviders(<Fields onDate={onDate} />);
    const day = screen.getByLabelText('Day');
    expect(day).toHaveAttribute('placeholder', 'JJ/MM/AAAA');
    await userEvent.type(day, '12/04/2026');
    fireEvent.blur(day);
    expect(onDate).toHaveBeenLastCalledWith('2026-04-12');
    expect(screen.getByText('Sera enregistrée : 12 avril 2026')).toBeInTheDocument();
  });

  it('shows what is wrong with the typed date rather than an older form error', async () => {
    renderWithProviders(<Required />);
    const born = screen.getByLabelText(/^Born/);
    await userEvent.type(born, '23/04/1957');
    fireEvent.blur(born);
    expect(screen.getByText('This day does not exist.')).toBeInTheDocument();
    expect(screen.queryByText('This field is required.')).not.toBeInTheDocument();
  });
});
