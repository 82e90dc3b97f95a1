import { queryOptions } from '@tanstack/react-query';
import type { Connection } from './connection';
import { clientFor, publicQueryKey } from './session';

/**
 * What a person reads instead of an ID: task names and their frontiers' titles (spec 4.1, 4.2) and
 * vertical names (4.3), as the service publishes them. Lookups by ID; an ID the service did not
 * name stays an ID (shortened where it is a UUID), so a name never hides which item it is.
 */
export interface Names {
  tasks: ReadonlyMap<string, { name: string; frontierId: string }>;
  frontiers: ReadonlyMap<string, string>;
  verticals: ReadonlyMap<string, string>;
}

export const NO_NAMES: Names = { tasks: new Map(), frontiers: new Map(), verticals: new Map() };

/**
 * One read of every name the service publishes: frontiers (historical ones included: old items
 * keep their task), each frontier's tasks, and the verticals. A part that fails leaves its IDs
 * unnamed rather than fail the page: names are for reading, the IDs stay the truth.
 */
async function loadNames(connection: Connection | null, signal?: AbortSignal): Promise<Names> {
  const client = clientFor(connection);
  const [frontiers, verticals] = await Promise.all([client.listFrontiers('all', signal).catch(() => []), client.listVerticals(signal).catch(() => [])]);
  const taskLists = await Promise.all(frontiers.map((f) => client.listTasks(f.frontier_id, signal).catch(() => [])));
  const tasks = new Map<string, { name: string; frontierId: string }>();
  for (const list of taskLists) for (const t of list) tasks.set(t.task_id, { name: t.name, frontierId: t.frontier_id });
  return {
    tasks,
    frontiers: new Map(frontiers.map((f) => [f.frontier_id, f.title])),
    verticals: new Map(verticals.map((v) => [v.id, v.name])),
  };
}

/** Public data, cached per base URL like the frontiers and verticals pages' reads. */
export const namesQuery = (connection: Connection | null) =>
  queryOptions({
    queryKey: [...publicQueryKey(connection), 'names'],
    queryFn: ({ signal }) => loadNames(connection, signal),
    staleTime: 5 * 60_000,
  });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A long ID cut to what tells it apart at a glance ("3f2a9c1e…"); short IDs (task 1002) stay whole. */
export function shortId(id: string): string {
  if (UUID.test(id)) return `${id.slice(0, 8)}…`;
  return id.length > 16 ? `${id.slice(0, 12)}…` : id;
}

/** A task's name ("Road object outlines"), or "Task 1002" when the service did not name it. */
export const taskName = (names: Names, taskId: string): string => names.tasks.get(taskId)?.name ?? `Task ${taskId}`;

/** The frontier's title a task belongs to, if known. */
export const taskFrontier = (names: Names, taskId: string): string | undefined => {
  const frontierId = names.tasks.get(taskId)?.frontierId;
  return frontierId === undefined ? undefined : names.frontiers.get(frontierId);
};

export const verticalName = (names: Names, verticalId: string): string => names.verticals.get(verticalId) ?? `Vertical ${shortId(verticalId)}`;

/** Topics have no published names: a short form of the ID, with the whole one a hover away. */
export const topicName = (topicId: string): string => `Topic ${shortId(topicId)}`;
