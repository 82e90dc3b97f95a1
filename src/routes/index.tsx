import { createFileRoute, redirect } from '@tanstack/react-router';
import { connectionStore, isConnected } from '../features/connections';

export const Route = createFileRoute('/')({
  beforeLoad: () => {
    throw redirect({ to: isConnected(connectionStore.active) ? '/review' : '/connection' });
  },
});
