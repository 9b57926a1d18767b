import type {
  CSSVariablesResolver,
  DrawerProps,
  LoaderProps,
  MantineColorsTuple,
  ModalProps,
  PaginationProps,
} from '@mantine/core';
import { createTheme, mergeThemeOverrides } from '@mantine/core';

// Component settings are plain objects (what `Component.extend` returns): naming a component here would put its
// code in the first download even on screens that never show it.

// The colours of 01 §2; index 6 is the colour itself, lighter tints below, darker shades above.
const primary: MantineColorsTuple = [
  '#edeff3',
  '#d6dce5',
  '#b2bcce',
  '#8e9cb6',
  '#6a7d9f',
  '#465d88',
  '#1e3a6e',
  '#1a3361',
  '#172c54',
  '#132546',
];
const secondary: MantineColorsTuple = [
  '#eff5fb',
  '#dce9f7',
  '#bcd6ef',
  '#9cc2e8',
  '#7dafe1',
  '#5d9cd9',
  '#3a86d1',
  '#3376b8',
  '#2c669f',
  '#255686',
];
const success: MantineColorsTuple = [
  '#eef7f0',
  '#daeedd',
  '#b8debf',
  '#97cea2',
  '#76bf84',
  '#54af66',
  '#2f9e44',
  '#298b3c',
  '#247834',
  '#1e652c',
];
const danger: MantineColorsTuple = [
  '#fcefef',
  '#f8dbdb',
  '#f1bcbc',
  '#ea9c9c',
  '#e47c7c',
  '#dd5d5d',
  '#d63939',
  '#bc3232',
  '#a32b2b',
  '#892424',
];
const warning: MantineColorsTuple = [
  '#fef6eb',
  '#fcead1',
  '#fad8a8',
  '#f8c680',
  '#f5b357',
  '#f3a12e',
  '#f08c00',
  '#d37b00',
  '#b66a00',
  '#9a5a00',
];

export const theme = createTheme({
  primaryColor: 'primary',
  primaryShade: { light: 6, dark: 5 },
  colors: { primary, secondary, success, danger, warning },
  // Layout breakpoints of 01 §2: 576, 768, 992, 1200 px (Mantine wants em: px / 16); xl is Mantine's own.
  breakpoints: { xs: '36em', sm: '48em', md: '62em', lg: '75em', xl: '88em' },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'md',
  cursorType: 'pointer',
  components: {
    // A loader is a status: its aria-label (what is loading) is allowed on it and read out (axe:
    // aria-prohibited-attr on a bare span).
    Loader: { defaultProps: { role: 'status' } satisfies Partial<LoaderProps> },
    // Required fields show a red star (01 §5).
    InputWrapper: { styles: { required: { color: 'var(--mantine-color-danger-6)' } } },
    // A toast's text under its title is gray.6 / dark.2 in Mantine (3.3:1 / 3.5:1): the dimmed colour passes AA.
    Notification: {
      styles: (_theme: unknown, props: { title?: unknown }) =>
        props.title ? { description: { color: 'var(--mantine-color-dimmed)' } } : {},
    },
  },
});

/**
 * The theme with the texts it carries: dialogs' and drawers' close buttons and pagers' arrows are named
 * (axe: button-name) in the user's language.
 */
export function themeWithLabels(labels: {
  close: string;
  pagination: Record<'first' | 'previous' | 'next' | 'last', string>;
}) {
  const closeButtonProps = { 'aria-label': labels.close };
  return mergeThemeOverrides(
    theme,
    createTheme({
      components: {
        Modal: { defaultProps: { closeButtonProps } satisfies Partial<ModalProps> },
        Drawer: { defaultProps: { closeButtonProps } satisfies Partial<DrawerProps> },
        // The arrows of every pager are named (axe: button-name).
        Pagination: {
          defaultProps: {
            getControlProps: (control: 'first' | 'previous' | 'next' | 'last') => ({
              'aria-label': labels.pagination[control],
            }),
          } satisfies Partial<PaginationProps>,
        },
      },
    }),
  );
}

/**
 * Text colours that pass WCAG AA (4.5:1) on the page background. Light: Mantine's "dimmed" (gray.6, 3.3:1 on
 * white) becomes gray.7 (7:1), field errors red.9. Dark: "dimmed" (dark.2, 4.0:1 on dark.7) becomes dark.1, and primary-coloured
 * text and links (the logo, anchors: primary.4, 3.7:1) become primary.2.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // Field errors: Mantine's red.6 is 3.3:1 on white; red.9 is 5.5:1.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    // Field errors: Mantine's dark red.8 is 3.4:1 on dark.7; red.4 is 6.7:1.
    '--mantine-color-error': 'var(--mantine-color-red-4)',
    '--mantine-color-primary-text': 'var(--mantine-color-primary-2)',
    '--mantine-color-anchor': 'var(--mantine-color-primary-2)',
    // Mantine's dark "light gray" (gray.9 darkened by half) is darker than the page: the INACTIVE badge vanished.
    '--mantine-color-gray-light': 'var(--mantine-color-dark-4)',
    '--mantine-color-gray-light-hover': 'var(--mantine-color-dark-3)',
    '--mantine-color-gray-light-color': 'var(--mantine-color-gray-1)',
  },
});
