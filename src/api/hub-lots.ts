import { lotResponse, lotsResponse, type HubLot, type LotUpdateBody, type NewLotBody, type SampleDecision } from './contract/hub-lots';
import { request } from './http';
import { hubConfig } from './hub';

/**
 * The team hub's sampling lots (`/hub/v1/lots`, docs/hub.md), apart from src/api/hub.ts so the lot
 * schema loads with the lots pages, not with every page that reads the hub.
 */
export const hubLotsApi = (baseUrl: string) => ({
  /** The team's sampling lots, newest first (any member). */
  lots: (signal?: AbortSignal): Promise<(HubLot & { sample_decisions: SampleDecision[] })[]> =>
    request(hubConfig(baseUrl), { method: 'GET', path: '/hub/v1/lots', schema: lotsResponse, signal }).then((r) => r.lots),
  /** One lot and the team's decisions on its sample (a 404 ApiError when the team has none by that ID). */
  lot: (id: string, signal?: AbortSignal): Promise<{ lot: HubLot; sample_decisions: SampleDecision[] }> =>
    request(hubConfig(baseUrl), { method: 'GET', path: `/hub/v1/lots/${encodeURIComponent(id)}`, schema: lotResponse, signal }),
  createLot: (body: NewLotBody): Promise<HubLot> =>
    request(hubConfig(baseUrl), { method: 'POST', path: '/hub/v1/lots', body, schema: lotResponse }).then((r) => r.lot),
  /** A 409 `LOT_CHANGED` ApiError when the lot moved on since `revision` was read. */
  updateLot: (id: string, body: LotUpdateBody): Promise<HubLot> =>
    request(hubConfig(baseUrl), { method: 'PUT', path: `/hub/v1/lots/${encodeURIComponent(id)}`, body, schema: lotResponse }).then((r) => r.lot),
});
