import { Link } from '@tanstack/react-router';
import { Panel } from '../ui/panel';

/**
 * A connection that lists no subscriptions has nothing to review, triage or count: the way to add
 * them, on its own edit form. `then` finishes the sentence where the page has more to say.
 */
export function NoSubscriptions({ connectionId, then = '.' }: { connectionId: string; then?: string }) {
  return (
    <Panel>
      <p className="text-sm">
        This connection lists no subscriptions.{' '}
        <Link to="/connection" search={{ edit: connectionId }} className="font-semibold text-brand-600 underline dark:text-brand-100">
          Add the subscription IDs you work with
        </Link>
        {then}
      </p>
    </Panel>
  );
}
