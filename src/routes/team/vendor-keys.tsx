import { createFileRoute } from '@tanstack/react-router';
import { NotForRole, VendorKeysPage, vendorKeysQuery } from '../../features/team';

export const Route = createFileRoute('/team/vendor-keys')({
  loader: ({ context }) => (context.me?.role === 'admin' ? context.queryClient.ensureQueryData(vendorKeysQuery()) : undefined),
  component: function TeamVendorKeysRoute() {
    const { me } = Route.useRouteContext();
    if (!me) return null;
    return me.role === 'admin' ? <VendorKeysPage /> : <NotForRole page="Vendor keys" who="Only an admin manages the vendor keys the hub holds." />;
  },
});
