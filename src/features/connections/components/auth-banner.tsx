import { Link } from '@tanstack/react-router';
import { useConnections } from '../../../data';

const REASONS: Record<string, string> = {
  KEY_REVOKED: 'This API key has been revoked.',
  KEY_EXPIRED: 'This API key has expired.',
  INVALID_API_KEY: 'The service does not recognise this API key.',
  MISSING_API_KEY: 'The service did not receive an API key.',
};

/** Shown when the server refused the active connection's key: requests stop, nothing else is lost. */
export function AuthBanner() {
  const { active, failures } = useConnections();
  const failure = active ? failures[active.id] : undefined;
  if (!active || !failure) return null;
  return (
    <div role="alert" className="border-b border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
      <strong className="font-semibold">{REASONS[failure.code] ?? 'The service refused this API key.'}</strong> Requests with the key of “{active.name}” are
      paused; nothing you have done is lost.{' '}
      <Link to="/connection" search={{ edit: active.id }} className="font-semibold underline">
        Replace the key
      </Link>
    </div>
  );
}
