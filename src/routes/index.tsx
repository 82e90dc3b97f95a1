import { createFileRoute, redirect } from '@tanstack/react-router';
import { isConnected } from '../data';

export const Route = createFileRoute('/')({
  beforeLoad: ({ context }) => {
    throw redirect({ to: isConnected(context.connection) ? '/review' : context.hub ? '/sign-in' : '/connection' });
  },
});
