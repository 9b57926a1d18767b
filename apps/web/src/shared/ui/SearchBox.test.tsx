import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { SearchBox } from './SearchBox';

function type(text: string) {
  fireEvent.change(screen.getByLabelText('Search patients'), { target: { value: text } });
}

describe('SearchBox', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup(value = '') {
    const onSearch = vi.fn();
    renderWithProviders(<SearchBox label="Search patients" value={value} onSearch={onSearch} />);
    return onSearch;
  }

  it('emits 300 ms after the last keystroke, once', () => {
    const onSearch = setup();
    type('jo');
    act(() => vi.advanceTimersByTime(200));
    type('jon');
    act(() => vi.advanceTimersByTime(299));
    expect(onSearch).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onSearch).toHaveBeenCalledTimes(1);
    expect(onSearch).toHaveBeenCalledWith('jon');
  });

  it('stays silent for a single character, and emits the empty text that clears the search', () => {
    const onSearch = setup('smith');
    type('s');
    act(() => vi.advanceTimersByTime(300));
    expect(onSearch).not.toHaveBeenCalled();
    type('');
    act(() => vi.advanceTimersByTime(300));
    expect(onSearch).toHaveBeenCalledExactlyOnceWith('');
  });

  it('does not emit an unchanged value (surrounding spaces do not count)', () => {
    const onSearch = setup('smith');
    type('smith ');
    act(() => vi.advanceTimersByTime(300));
    type(' smith');
    act(() => vi.advanceTimersByTime(300));
    expect(onSearch).not.toHaveBeenCalled();
    type('smit');
    act(() => vi.advanceTimersByTime(300));
    expect(onSearch).toHaveBeenCalledExactlyOnceWith('smit');
  });

  it('does not emit on mount', () => {
    const onSearch = setup('smith');
    act(() => vi.advanceTimersByTime(1000));
    expect(onSearch).not.toHaveBeenCalled();
  });
});
