import { createFileRoute, redirect } from '@tanstack/react-router';
import { homeOf } from '../../features/team';

/** /team opens the first team page the member's role may use. */
export const Route = createFileRoute('/team/')({
  beforeLoad: ({ context }) => {
    if (context.me) throw redirect({ to: homeOf(context.me.role), replace: true });
  },
});
