import { createFileRoute, redirect } from '@tanstack/react-router';
import { z } from '../api/contract/zod';
import { ConnectionsPage } from '../features/connections';
import { isSafeRedirect } from '../api/contract/safe-redirect';
import { DisconnectDialog, LocalDataPanel } from '../features/local-data';
import { RemoveConnectionDialog } from '../features/outbox';
import { forgetContent } from '../features/review';

const searchSchema = z.object({
  edit: z.string().max(64).optional().catch(undefined),
  /** Where the user was going when sent here to connect: a same-origin path only (no open redirect). */
  redirect: z.string().max(2000).refine(isSafeRedirect).optional().catch(undefined),
});

export const Route = createFileRoute('/connection')({
  validateSearch: searchSchema,
  // Through a team hub the connection is the hub's (no form, no key): the review, or sign in first.
  beforeLoad: ({ context }) => {
    if (context.hub) throw redirect({ to: context.hub.member ? '/review' : '/sign-in' });
  },
  // Its dialogs (disconnect, remove, delete local data) act on the connections' decisions.
  loader: ({ context }) => context.outbox.load().then(() => undefined),
  component: function ConnectionRoute() {
    const { edit, redirect } = Route.useSearch();
    const active = Route.useRouteContext().connection;
    return (
      <ConnectionsPage
        editId={edit}
        redirectTo={redirect}
        removeDialog={(connection, onDone) => <RemoveConnectionDialog connection={connection} onDone={onDone} />}
        disconnectDialog={(connection, onDone) => <DisconnectDialog connection={connection} forgetContent={forgetContent} onDone={onDone} />}
      >
        {active?.apiKey ? <LocalDataPanel connection={active} forgetContent={forgetContent} /> : null}
      </ConnectionsPage>
    );
  },
});
