import { useEffect, type RefObject } from 'react';

/**
 * An open disclosure (a menu under its button) closes on Escape, the focus back on its button, and
 * on a click or focus outside its box. One rule for the Settings menu and the member's menu.
 */
export function useDismiss(open: boolean, close: () => void, box: RefObject<HTMLElement | null>, button: RefObject<HTMLElement | null>) {
  useEffect(() => {
    if (!open) return;
    const outside = (event: Event) => {
      if (!box.current?.contains(event.target as Node)) close();
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      close();
      button.current?.focus();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('focusin', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('focusin', outside);
      document.removeEventListener('keydown', escape);
    };
    // `close` is a setter's call: only whether it is open starts and ends the listening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
}
