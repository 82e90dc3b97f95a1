import { z } from '../api/contract/zod';
import { connectionSchema, type Connection } from './connection';

/**
 * Connections live in sessionStorage unless the user chose "Remember on this device",
 * which puts them in localStorage. Nothing else of ours is persisted with a secret in it.
 */
export const CONNECTIONS_KEY = 'dds.connections';
export const ACTIVE_KEY = 'dds.activeConnection';

const storedSchema = z.array(z.unknown());

function storage(kind: 'session' | 'local'): Storage | null {
  try {
    return kind === 'session' ? window.sessionStorage : window.localStorage;
  } catch {
    return null; // storage disabled: connections last for this page only
  }
}

function readFrom(kind: 'session' | 'local'): Connection[] {
  const raw = storage(kind)?.getItem(CONNECTIONS_KEY);
  if (!raw) return [];
  try {
    const list = storedSchema.parse(JSON.parse(raw));
    // A damaged entry is skipped, the others survive.
    return list.flatMap((entry) => {
      const parsed = connectionSchema.safeParse(entry);
      return parsed.success ? [parsed.data] : [];
    });
  } catch {
    return [];
  }
}

function writeTo(kind: 'session' | 'local', connections: Connection[]): void {
  const target = storage(kind);
  if (!target) return;
  if (connections.length === 0) target.removeItem(CONNECTIONS_KEY);
  else target.setItem(CONNECTIONS_KEY, JSON.stringify(connections));
}

export function loadConnections(): { connections: Connection[]; activeId: string | null } {
  const remembered = readFrom('local');
  const session = readFrom('session').filter((c) => !remembered.some((r) => r.id === c.id));
  const activeId = storage('session')?.getItem(ACTIVE_KEY) ?? storage('local')?.getItem(ACTIVE_KEY) ?? null;
  return { connections: [...remembered, ...session], activeId };
}

export function saveConnections(connections: Connection[], activeId: string | null): void {
  writeTo(
    'local',
    connections.filter((c) => c.remember),
  );
  writeTo(
    'session',
    connections.filter((c) => !c.remember),
  );
  for (const kind of ['session', 'local'] as const) {
    const target = storage(kind);
    if (!target) continue;
    if (activeId) target.setItem(ACTIVE_KEY, activeId);
    else target.removeItem(ACTIVE_KEY);
  }
}
