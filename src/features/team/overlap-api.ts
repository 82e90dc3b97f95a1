import {
  agreementResponse,
  disagreementsResponse,
  figuresResponse,
  overlapSettingsSchema,
  settleResponse,
  type OverlapSetting,
} from '../../api/contract/hub-overlap';
import { call } from './api';

/* Overlap, the lead's queue, agreement and reviewers' figures on the hub (/hub/v1/…), with the session cookie. */

export const overlapApi = {
  settings: () => call(overlapSettingsSchema, '/overlap'),
  saveSettings: (settings: OverlapSetting[]) => call(overlapSettingsSchema, '/overlap', { method: 'PUT', body: { settings } }),
  disagreements: () => call(disagreementsResponse, '/disagreements'),
  settle: (body: { family: 'data' | 'live'; item_id: string; decision: 'adopt' | 'dispute' }) =>
    call(settleResponse, '/disagreements/settle', { method: 'POST', body }),
  agreement: () => call(agreementResponse, '/agreement'),
  figures: () => call(figuresResponse, '/reviewers/figures'),
};
