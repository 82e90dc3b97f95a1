import { createFileRoute } from '@tanstack/react-router';
import { z } from '../api/contract/zod';
import { ConnectionsPage } from '../features/connections';

const searchSchema = z.object({ edit: z.string().max(64).optional().catch(undefined) });

export const Route = createFileRoute('/connection')({
  validateSearch: searchSchema,
  component: function ConnectionRoute() {
    const { edit } = Route.useSearch();
    return <ConnectionsPage editId={edit} />;
  },
});
