import { createFileRoute, redirect } from '@tanstack/react-router';
import { VerifyKeyPage } from '../features/keys';

export const Route = createFileRoute('/keys')({
  // Through a team hub the browser holds no key to check: the hub's vendor keys are its admins'.
  beforeLoad: ({ context }) => {
    if (context.hub) throw redirect({ to: context.hub.member ? '/review' : '/sign-in' });
  },
  component: function KeysRoute() {
    return <VerifyKeyPage connection={Route.useRouteContext().connection} />;
  },
});
