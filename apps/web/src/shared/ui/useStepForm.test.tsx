import { Button } from '@mantine/core';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { ApiError } from '../api-client';
import { TextField } from './TextField';
import { type StepForm, useStepForm } from './useStepForm';
import { email, required } from './validators';

type Values = { name: string; phone: string; email: string };
const STEPS = [['name', 'phone'], ['email']] as const;

let latest: StepForm<Values> | null = null;

/** Two steps: name and phone first, then the email. Every field is required. */
function TwoStepForm({ onDone }: { onDone: (values: Values) => void }) {
  const form = useStepForm<Values>(
    { name: '', phone: '', email: '' },
    { name: [required], phone: [required], email: [required, email] },
    STEPS,
  );
  latest = form;
  return (
    <form noValidate onSubmit={form.onSubmit(onDone)}>
      <p data-testid="step">{form.step}</p>
      <p data-testid="errors">{Object.keys(form.errors).sort().join(',')}</p>
      {form.step === 1 ? (
        <>
          <TextField label="Name" required {...form.field('name')} />
          <TextField label="Phone" required {...form.field('phone')} />
        </>
      ) : (
        <TextField label="Email" required {...form.field('email')} />
      )}
      {form.step > 1 ? (
        <Button type="button" onClick={form.back}>
          Back
        </Button>
      ) : null}
      <Button type="submit">{form.isLastStep ? 'Finish' : 'Next'}</Button>
    </form>
  );
}

describe('multi-step forms (01 §5)', () => {
  it('validates only the current step, counted from 1, and submits only when the whole form is valid', async () => {
    const onDone = vi.fn();
    renderWithProviders(<TwoStepForm onDone={onDone} />);
    const user = userEvent.setup();
    expect(screen.getByTestId('step')).toHaveTextContent('1');

    await user.type(screen.getByLabelText(/^Name/), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    // The empty email of step 2 is not reported while the user is on step 1.
    expect(screen.getByTestId('errors')).toHaveTextContent(/^phone$/);
    expect(screen.getByTestId('step')).toHaveTextContent('1');
    expect(screen.getByText('This field is required.')).toBeInTheDocument();

    await user.type(screen.getByLabelText(/^Phone/), '555 0100');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByTestId('step')).toHaveTextContent('2');
    expect(screen.getByTestId('errors')).toBeEmptyDOMElement();

    await user.type(screen.getByLabelText(/^Email/), 'nope');
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(screen.getByText('Enter a valid email address.')).toBeInTheDocument();
    expect(onDone).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText(/^Email/));
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.org');
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(onDone).toHaveBeenCalledExactlyOnceWith({
      name: 'Ada',
      phone: '555 0100',
      email: 'ada@example.org',
    });
  });

  it('goes back without validating, and returns to an earlier step that no longer passes', async () => {
    const onDone = vi.fn();
    renderWithProviders(<TwoStepForm onDone={onDone} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Name/), 'Ada');
    await user.type(screen.getByLabelText(/^Phone/), '555 0100');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByTestId('step')).toHaveTextContent('1');
    expect(screen.getByTestId('errors')).toBeEmptyDOMElement();
    await user.clear(screen.getByLabelText(/^Name/));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByTestId('errors')).toHaveTextContent(/^name$/);

    // Values changed behind the form's back (e.g. a reset) are caught by the final check.
    await user.type(screen.getByLabelText(/^Name/), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    act(() => latest?.setValue('phone', ''));
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.org');
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(screen.getByTestId('step')).toHaveTextContent('1');
    expect(screen.getByTestId('errors')).toHaveTextContent(/^phone$/);
    expect(onDone).not.toHaveBeenCalled();
  });

  it('shows the server’s field errors and opens the first step that has one', async () => {
    renderWithProviders(<TwoStepForm onDone={() => {}} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Name/), 'Ada');
    await user.type(screen.getByLabelText(/^Phone/), '555 0100');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    act(() => {
      latest?.showServerErrors(
        new ApiError(422, {
          message: 'The given data was invalid.',
          errors: { 'phone.0': ['Ignored: not a field of the form.'], phone: ['The phone is taken.', 'x'] },
        }),
      );
    });
    expect(screen.getByTestId('step')).toHaveTextContent('1');
    expect(screen.getByText('The phone is taken.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Phone/)).toHaveAttribute('aria-invalid', 'true');
  });
});
