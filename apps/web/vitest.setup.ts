import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { loadLanguage } from './src/shared/i18n';

// The console loads a language's texts when chosen; tests switch language at once.
await Promise.all((['de', 'fr', 'pt'] as const).map(loadLanguage));

// Lazy pages are transformed on first import; with every test file running in parallel on a busy machine that can
// take several seconds. findBy*/waitFor return as soon as their condition holds, so this bound only decides how long
// a test that is really failing takes to say so: it is set for a machine with other work on both cores (issue 29).
configure({ asyncUtilTimeout: 15_000 });

// Mantine reads these browser APIs, which jsdom does not implement.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;
window.HTMLElement.prototype.scrollIntoView = () => {};
// Mantine's autosize textarea listens for font loading.
Object.defineProperty(document, 'fonts', {
  configurable: true,
  value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
