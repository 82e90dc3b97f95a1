import { createContext, use } from 'react';
import type { HubMember, TeamSubscription } from '../api/contract/hub';
import type { Connection } from './connection';

/**
 * Hub mode: the console is served by a team hub on its own origin (detected once at start by
 * `GET /hub/v1/me`, src/api/hub.ts). `member` is null until someone signs in.
 */
export interface HubMode {
  origin: string;
  member: HubMember | null;
}

/** Null in personal mode (a key in the browser); given by the app (src/main.tsx). */
export const HubModeContext = createContext<HubMode | null>(null);

export const useHubMode = (): HubMode | null => use(HubModeContext);

/**
 * The connection in hub mode: derived from the hub (the member, the team's subscriptions), never
 * from the connect form; never stored (the hub gives it again at every start). Its local data
 * (IndexedDB, the outbox) is scoped to the hub's origin and the member's id: two members on one
 * browser never share decisions, and a member's unsent decisions wait for their next sign-in.
 */
export function hubConnection(origin: string, member: HubMember, subscriptions: readonly TeamSubscription[]): Connection {
  return {
    id: `hub:${member.id}`,
    name: 'Team hub',
    baseUrl: origin,
    apiKey: '',
    subscriptions: subscriptions.map((s) => ({ id: s.id, kind: s.kind, ...(s.label ? { label: s.label } : {}) })),
    remember: false,
    verified: { org_id: `member:${member.id}`, key_id: 'hub', key_name: 'team hub session' },
    hub: { member },
  };
}

/** Why this connection may not decide (a hub viewer), or null: the review disables its decide keys with it. */
export const decideRefusal = (connection: Connection | null): string | null =>
  connection?.hub?.member.role === 'viewer' ? 'You are a viewer on this team hub: you can read everything but not adopt or dispute.' : null;
