import { type ComponentType, useEffect, useState } from 'react';
import { type Deferred, type Loader, loadOnce, useDeferred } from './loadOnce';

export interface PlaceholderProps {
  /** The user reached for the control before its code arrived: it opens as soon as it is there. */
  onOpen: () => void;
  /** Where the keyboard focus is: the real control takes it over when it replaces the placeholder. */
  onFocus: () => void;
  onBlur: () => void;
}

export interface DeferredProps {
  /** The user reached for the placeholder: open at once (a Menu's `defaultOpened`, a Select's dropdown). */
  opening: boolean;
  /** The placeholder had the focus (or was clicked): the real control's target takes it (`autoFocus`). */
  focused: boolean;
}

interface ControlViewProps<P> {
  code: Deferred<ComponentType<P & DeferredProps>>;
  placeholder: ComponentType<P & PlaceholderProps>;
  props: P;
}

function ControlView<P extends object>({ code, placeholder: Placeholder, props }: ControlViewProps<P>) {
  const Loaded = useDeferred(code);
  const [opening, setOpening] = useState(false);
  const [focused, setFocused] = useState(false);
  if (Loaded) return <Loaded {...props} opening={opening} focused={focused || opening} />;
  return (
    <Placeholder
      {...props}
      onOpen={() => {
        setOpening(true);
        void code.preload();
      }}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
    />
  );
}

/**
 * A control of the first screens whose popover code (Menu, Popover, Combobox, Tooltip, and floating-ui under
 * them) loads right after the first render instead of before it (ADR 048). Until it has arrived `placeholder`
 * stands in, drawn the same from the same Mantine parts (the control's target without its dropdown), so
 * nothing moves or flashes when it is swapped; a click on it opens the real control once it is there, and the
 * real control takes over the keyboard focus. A control whose code cannot be loaded keeps its placeholder
 * (logged; tried again on the next click).
 */
export function deferredControl<P extends object>(
  load: Loader<ComponentType<P & DeferredProps>>,
  placeholder: ComponentType<P & PlaceholderProps>,
) {
  const code = loadOnce(load, 'A control');
  const control = (props: P) => <ControlView code={code} placeholder={placeholder} props={props} />;
  return Object.assign(control, { preload: code.preload });
}

interface DialogViewProps<P extends { opened: boolean }> {
  code: Deferred<ComponentType<P>>;
  props: P;
}

function DialogView<P extends { opened: boolean }>({ code, props }: DialogViewProps<P>) {
  const Loaded = useDeferred(code);
  const [wanted, setWanted] = useState(props.opened);
  if (props.opened && !wanted) setWanted(true);
  // Drawn closed once, then as asked: Mantine's Modal animates a change of `opened`, not a first draw.
  const [settled, setSettled] = useState(false);
  const drawn = Loaded !== null && wanted;
  useEffect(() => {
    if (drawn) setSettled(true);
  }, [drawn]);
  if (!Loaded || !wanted) return null;
  return <Loaded {...props} opened={props.opened && settled} />;
}

/**
 * A dialog (a Modal and what it shows) whose code loads right after the first render of the screen that can
 * open it, not before: it draws nothing until first opened. Opened before its code arrived, it shows once it is
 * there, with its usual opening transition.
 */
export function deferredDialog<P extends { opened: boolean }>(load: Loader<ComponentType<P>>) {
  const code = loadOnce(load, 'A dialog');
  const dialog = (props: P) => <DialogView code={code} props={props} />;
  return Object.assign(dialog, { preload: code.preload });
}
