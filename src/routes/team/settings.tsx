import { createFileRoute } from '@tanstack/react-router';
import { SettingsPage, settingsQuery } from '../../features/team';

export const Route = createFileRoute('/team/settings')({
  loader: ({ context }) => (context.me ? context.queryClient.ensureQueryData(settingsQuery()) : undefined),
  component: function TeamSettingsRoute() {
    const { me } = Route.useRouteContext();
    return me ? <SettingsPage me={me} /> : null;
  },
});
