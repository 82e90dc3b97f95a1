import { redirect } from '@tanstack/react-router';
import { connectionStore } from './instance';
import { isConnected, type Connection } from './model';

/** For loaders of pages that need a key: the active connection, or a redirect to connect. */
export function requireConnection(): Connection & { apiKey: string } {
  const active = connectionStore.active;
  if (!isConnected(active)) throw redirect({ to: '/connection' });
  return active;
}
