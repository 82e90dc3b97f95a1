import { createFileRoute } from '@tanstack/react-router';
import { BulkActions } from '../../../features/bulk';
import { blobSink } from '../../../features/export';
import { LotPage } from '../../../features/sampling';

export const Route = createFileRoute('/_connected/lots/$lotId')({
  component: function LotRoute() {
    const { connection } = Route.useRouteContext();
    const { lotId } = Route.useParams();
    return (
      <LotPage
        key={`${connection.id}:${lotId}`}
        connection={connection}
        lotId={lotId}
        // Deciding the rest is the bulk feature's; the lot's file is written as an export's download.
        RestActions={BulkActions}
        saveFile={blobSink}
      />
    );
  },
});
