import { createFileRoute } from '@tanstack/react-router';
import { LotsIndex } from '../../../features/sampling';

export const Route = createFileRoute('/_connected/lots/')({
  component: function LotsIndexRoute() {
    return <LotsIndex connection={Route.useRouteContext().connection} />;
  },
});
