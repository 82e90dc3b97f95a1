import { createFileRoute } from '@tanstack/react-router';
import { VerifyKeyPage } from '../features/keys';

export const Route = createFileRoute('/keys')({
  component: function KeysRoute() {
    return <VerifyKeyPage connection={Route.useRouteContext().connection} />;
  },
});
