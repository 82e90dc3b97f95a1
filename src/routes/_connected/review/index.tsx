import { createFileRoute } from '@tanstack/react-router';
import { ReviewIndex } from '../../../features/review';

export const Route = createFileRoute('/_connected/review/')({
  component: function ReviewIndexRoute() {
    return <ReviewIndex connection={Route.useRouteContext().connection} />;
  },
});
