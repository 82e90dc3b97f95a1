import { Link } from '@tanstack/react-router';
import { useConnections } from '../../../data';
import { useConnectionLifecycle } from '../lifecycle';

/** The header's connection picker and status. */
export function ConnectionSwitcher() {
  const { connections, active, failures, observed } = useConnections();
  const lifecycle = useConnectionLifecycle();
  if (connections.length === 0) {
    return (
      <Link to="/connection" className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700">
        Connect
      </Link>
    );
  }
  const failure = active ? failures[active.id] : undefined;
  const seen = active ? observed[active.id] : undefined;
  // Only what was observed: a verify or keyed request that succeeded, a refusal, a network error;
  // or, after a reload, the verification the key passed when it was saved (kept with the
  // connection). A refusal or an unreachable service since says so instead.
  const status = !active?.apiKey
    ? 'disconnected'
    : failure
      ? 'key refused'
      : seen?.state === 'unreachable'
        ? `unreachable since ${new Date(seen.since).toLocaleTimeString()}`
        : seen?.state === 'connected' || active.verified
          ? 'verified'
          : 'not checked yet';
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-x-2 text-sm">
      <label htmlFor="active-connection" className="sr-only">
        Active connection
      </label>
      <select
        id="active-connection"
        className="max-w-40 rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-600 dark:bg-slate-900"
        value={active?.id ?? ''}
        onChange={(event) => lifecycle.activate(event.target.value)}
      >
        {connections.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <span
        role="status"
        aria-label={`Connection status: ${status}`}
        className={
          status === 'verified'
            ? 'text-green-700 dark:text-green-400'
            : status === 'key refused' || seen?.state === 'unreachable'
              ? 'font-semibold text-red-700 dark:text-red-400'
              : 'text-slate-500'
        }
      >
        ● {status}
      </span>
    </div>
  );
}
