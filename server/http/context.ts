import type { LivePullForm } from '../../src/api/contract';
import type { Db } from '../store/db';
import type { KeyRecord } from '../store/keys';
import type { HostPolicy } from './hosts';

/** What every router needs: the store and the service's start-up options. */
export interface ServiceContext {
  db: Db;
  cursorSecret: string;
  jwtSecret: string;
  livePullForm: LivePullForm;
  corsOrigins: readonly string[];
  /** Built console to serve beside the API, if any. */
  staticDir?: string;
  /** Demo credentials offered to the console served here ("Use the local demo"). */
  demoCredentialsFile?: string;
  log?: (line: string) => void;
  /** The Host values answered (421 otherwise); absent only when the app is used without a server. */
  hostPolicy?: HostPolicy;
}

export interface AppEnv {
  Variables: { key: KeyRecord };
}
