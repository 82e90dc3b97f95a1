import type { SignedInMember, TeamSubscription } from '../api/contract/hub';
import type { Connection } from './connection';

/**
 * The connection in hub mode: derived from the hub (the member, the team's subscriptions), never
 * from the connect form; never stored (the hub gives it again at every start). Its local data
 * (IndexedDB, the outbox) is scoped to the hub's origin and the member's id: two members on one
 * browser never share decisions, and a member's unsent decisions wait for their next sign-in.
 */
export function hubConnection(origin: string, member: SignedInMember, subscriptions: readonly TeamSubscription[]): Connection {
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
