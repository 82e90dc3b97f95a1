import { createFileRoute } from '@tanstack/react-router';
import { requireConnection } from '../../features/connections';
import { ReviewIndex } from '../../features/review';

export const Route = createFileRoute('/review/')({
  beforeLoad: ({ location }) => {
    requireConnection(location);
  },
  component: ReviewIndex,
});
