import { createContext, useContext } from 'react';
import type { Connection } from './connection';

/**
 * What a page may do to a connection (activate, save, disconnect, remove), each of which cancels
 * the reads in flight, drops the cached reads of that key and reloads the page. The connections
 * feature implements it and the shell provides it, so the features that disconnect or remove a
 * connection (local data, the outbox) do not import the connections feature.
 */
export interface ConnectionLifecycle {
  activate(id: string): void;
  save(connection: Connection): void;
  disconnect(connection: Connection): void;
  remove(connection: Connection): void;
}

export const ConnectionLifecycleContext = createContext<ConnectionLifecycle | null>(null);

export function useConnectionLifecycle(): ConnectionLifecycle {
  const lifecycle = useContext(ConnectionLifecycleContext);
  if (!lifecycle) throw new Error('useConnectionLifecycle needs the ConnectionLifecycleContext the app shell provides');
  return lifecycle;
}
