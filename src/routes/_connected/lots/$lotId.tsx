import { createFileRoute } from '@tanstack/react-router';
import { LotPage } from '../../../features/sampling';

export const Route = createFileRoute('/_connected/lots/$lotId')({
  component: function LotRoute() {
    const { connection } = Route.useRouteContext();
    const { lotId } = Route.useParams();
    return <LotPage key={`${connection.id}:${lotId}`} connection={connection} lotId={lotId} />;
  },
});
