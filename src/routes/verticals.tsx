import { createFileRoute } from '@tanstack/react-router';
import { verticalsQuery, VerticalsPage } from '../features/verticals';
import { connectionStore } from '../features/connections';

export const Route = createFileRoute('/verticals')({
  loader: ({ context }) => context.queryClient.ensureQueryData(verticalsQuery(connectionStore.active)),
  component: VerticalsPage,
});
