/*
 * jsdom has <dialog> (and hides it unless `open`) but not showModal()/close(), nor the
 * browser's Esc handling. This adds the little the console's dialogs rely on, as browsers do it:
 * showModal() opens, close() closes and fires `close`, and Esc on an open modal dialog fires a
 * cancelable `cancel` at it, closing it unless a handler prevents that.
 * Focus trapping and inertness are not imitated: E2E tests cover those in a real browser.
 */
const modals = new WeakSet<HTMLDialogElement>();

export function installDialogPolyfill() {
  if (typeof HTMLDialogElement === 'undefined' || typeof HTMLDialogElement.prototype.showModal === 'function') return;
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    if (this.open) throw new DOMException('The dialog is already open.', 'InvalidStateError');
    this.setAttribute('open', '');
    modals.add(this);
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.open) return;
    this.removeAttribute('open');
    modals.delete(this);
    this.dispatchEvent(new Event('close'));
  };
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    const top = [...document.querySelectorAll('dialog[open]')].filter((d): d is HTMLDialogElement => d instanceof HTMLDialogElement && modals.has(d)).at(-1);
    if (top && top.dispatchEvent(new Event('cancel', { cancelable: true }))) top.close();
  });
}
