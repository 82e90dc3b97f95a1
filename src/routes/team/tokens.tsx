import { createFileRoute } from '@tanstack/react-router';
import { TokensPage, tokensQuery } from '../../features/team';

export const Route = createFileRoute('/team/tokens')({
  loader: ({ context }) => (context.me ? context.queryClient.ensureQueryData(tokensQuery()) : undefined),
  component: function TeamTokensRoute() {
    const { me } = Route.useRouteContext();
    return me ? <TokensPage me={me} /> : null;
  },
});
