import { createFileRoute } from '@tanstack/react-router';
import { figuresQuery, ReviewersPage } from '../../features/team';

export const Route = createFileRoute('/team/reviewers')({
  loader: ({ context }) => (context.me ? context.queryClient.ensureQueryData(figuresQuery()) : undefined),
  component: function TeamReviewersRoute() {
    const { me } = Route.useRouteContext();
    return me ? <ReviewersPage me={me} /> : null;
  },
});
