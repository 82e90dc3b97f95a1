import { createContext, use } from 'react';
import type { SignedInMember } from '../api/contract/hub';
import type { Connection } from './connection';

/**
 * Hub mode: the console is served by a team hub on its own origin (detected once at start by
 * `GET /hub/v1/me`, src/api/hub.ts). `member` is null until someone signs in.
 */
export interface HubMode {
  origin: string;
  member: SignedInMember | null;
  /** Forgets the member kept for an offline start (src/app/hub-session-memory.ts): a sign-out calls it, so no offline start reopens their review. */
  forget?: () => void;
}

/** Null in personal mode (a key in the browser); given by the app (src/main.tsx). */
export const HubModeContext = createContext<HubMode | null>(null);

export const useHubMode = (): HubMode | null => use(HubModeContext);

/**
 * Why this connection may not pull new live items (a hub viewer), or null. "Pull new" moves the
 * subscription forward for the whole team, so the hub refuses it to viewers (403); the review shows
 * them no Pull, Pull all new or Recover rather than a button that would be refused.
 */
export const pullRefusal = (connection: Connection | null): string | null =>
  connection?.hub?.member.role === 'viewer'
    ? 'You are a viewer on this team hub: pulling new items moves the subscription forward for the whole team, so reviewers and admins pull. What they pull shows here.'
    : null;

/** Why this connection may not decide (a hub viewer), or null: the review disables its decide keys with it. */
export const decideRefusal = (connection: Connection | null): string | null =>
  connection?.hub?.member.role === 'viewer' ? 'You are a viewer on this team hub: you can read everything but not adopt or dispute.' : null;
