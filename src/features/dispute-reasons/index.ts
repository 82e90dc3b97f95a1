/** Public entry of dispute reasons: the organization's reason codes, their dialog part and editor. */
export { DisputeReasonsPage } from './components/reasons-editor';
export { NO_CHOICE, ReasonPicker, type ReasonChoice } from './components/reason-picker';
export { useDisputeReasons } from './hooks';
export { DISPUTE_KEYMAP } from './keymap';
export { DEFAULT_REASONS, formatReason, NO_REASON, OTHER, parseReason, type ReasonCode } from './model';
