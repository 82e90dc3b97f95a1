import { createFileRoute, redirect } from '@tanstack/react-router';
import { homeOf } from '../../features/team';

/** /team opens the first team page the member's role may use (in the loader: it loads with the team pages, not the first page). */
export const Route = createFileRoute('/team/')({
  loader: ({ context }) => {
    if (context.me) throw redirect({ to: homeOf(context.me.role), replace: true });
  },
});
