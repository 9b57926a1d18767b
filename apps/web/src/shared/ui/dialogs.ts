/**
 * Where dialogs open and how they move (spec 01 §9): 5 % from the top and 25 % from the left of the window,
 * draggable by the header with the mouse, or with the arrow keys once the header has focus (Shift moves
 * further), and always kept within the window (also when the window shrinks). One set of document listeners
 * for every Mantine dialog, loaded after the first screen with the rest of the styles (app/styles/rest.ts), so
 * the first-load chunks carry none of it.
 */

const HEADER = '.mantine-Modal-header';
const CONTENT = '.mantine-Modal-content';
const STEP = 16;
const BIG_STEP = 96;

/** 25 % from the left, never past the right edge for wide dialogs (5 % from the top is Mantine's y offset). */
const PLACEMENT = `
.mantine-Modal-inner { justify-content: flex-start; }
.mantine-Modal-content { margin-inline-start: max(0px, min(25vw - var(--modal-x-offset, 0px), 100% - var(--modal-size, 100%))); }
${HEADER} { cursor: move; touch-action: none; }
`;

type Offset = { x: number; y: number };

function offsetOf(content: HTMLElement): Offset {
  return { x: Number(content.dataset.dragX ?? 0), y: Number(content.dataset.dragY ?? 0) };
}

/** Moves the dialog to `wanted` (an offset from where it opened), clamped so the whole box stays in the window. */
export function moveDialog(content: HTMLElement, wanted: Offset): Offset {
  const current = offsetOf(content);
  const box = content.getBoundingClientRect();
  // Where the dialog would be without any move.
  const left = box.left - current.x;
  const top = box.top - current.y;
  const width = window.innerWidth;
  const height = window.innerHeight;
  const x = Math.round(Math.min(Math.max(wanted.x, -left), Math.max(-left, width - left - box.width)));
  // A dialog taller than the window keeps its header in view.
  const y = Math.round(Math.min(Math.max(wanted.y, -top), Math.max(-top, height - top - box.height)));
  content.dataset.dragX = String(x);
  content.dataset.dragY = String(y);
  content.style.translate = x === 0 && y === 0 ? '' : `${x}px ${y}px`;
  return { x, y };
}

function contentOf(target: EventTarget | null): { header: HTMLElement; content: HTMLElement } | null {
  if (!(target instanceof Element)) return null;
  if (target.closest('button, a, input, select, textarea')) return null;
  const header = target.closest<HTMLElement>(HEADER);
  const content = header?.closest<HTMLElement>(CONTENT);
  return header && content ? { header, content } : null;
}

const KEYS: Record<string, Offset> = {
  ArrowLeft: { x: -1, y: 0 },
  ArrowRight: { x: 1, y: 0 },
  ArrowUp: { x: 0, y: -1 },
  ArrowDown: { x: 0, y: 1 },
};

/** The header's hint, in the page's language (a few words: not worth a place in the first-load texts). */
const MOVE_HINT: Record<string, string> = {
  en: 'Drag, or use the arrow keys, to move the dialog',
  de: 'Ziehen oder mit den Pfeiltasten verschieben',
  fr: 'Faites glisser, ou utilisez les flèches, pour déplacer la fenêtre',
  pt: 'Arraste, ou use as setas, para mover a janela',
};

let installed = false;

/** Installs the placement and the listeners once; returns a function that removes them (for tests). */
export function placeDialogs(): () => void {
  if (installed) return () => {};
  installed = true;
  const style = document.createElement('style');
  style.dataset.dialogs = '';
  style.textContent = PLACEMENT;
  document.head.append(style);

  const onMouseDown = (event: MouseEvent) => {
    if (event.button !== 0) return;
    const found = contentOf(event.target);
    if (!found) return;
    event.preventDefault();
    const start = { x: event.clientX, y: event.clientY };
    const from = offsetOf(found.content);
    const onMove = (move: MouseEvent) => {
      moveDialog(found.content, { x: from.x + move.clientX - start.x, y: from.y + move.clientY - start.y });
    };
    const onUp = () => {
      document.removeEventListener('mousemove', onMove);
      document.removeEventListener('mouseup', onUp);
    };
    document.addEventListener('mousemove', onMove);
    document.addEventListener('mouseup', onUp);
  };

  // The header can take focus (after the dialog's first control, which keeps the initial focus), and then the
  // arrow keys move the dialog.
  const onFocusIn = (event: FocusEvent) => {
    if (!(event.target instanceof Element)) return;
    const header = event.target.closest(CONTENT)?.querySelector<HTMLElement>(HEADER);
    if (header && !header.hasAttribute('tabindex')) {
      header.tabIndex = 0;
      header.title = MOVE_HINT[document.documentElement.lang] ?? MOVE_HINT.en ?? '';
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const direction = KEYS[event.key];
    if (!direction || !(event.target instanceof HTMLElement) || !event.target.matches(HEADER)) return;
    const content = event.target.closest<HTMLElement>(CONTENT);
    if (!content) return;
    event.preventDefault();
    const step = event.shiftKey ? BIG_STEP : STEP;
    const from = offsetOf(content);
    moveDialog(content, { x: from.x + direction.x * step, y: from.y + direction.y * step });
  };

  const onResize = () => {
    for (const content of document.querySelectorAll<HTMLElement>(`${CONTENT}[data-drag-x]`)) {
      moveDialog(content, offsetOf(content));
    }
  };

  document.addEventListener('mousedown', onMouseDown);
  document.addEventListener('focusin', onFocusIn);
  document.addEventListener('keydown', onKeyDown);
  window.addEventListener('resize', onResize);
  return () => {
    installed = false;
    style.remove();
    document.removeEventListener('mousedown', onMouseDown);
    document.removeEventListener('focusin', onFocusIn);
    document.removeEventListener('keydown', onKeyDown);
    window.removeEventListener('resize', onResize);
  };
}
