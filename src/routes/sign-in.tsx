import { createFileRoute, redirect } from '@tanstack/react-router';
import { z } from '../api/contract/zod';
import { SignInPage } from '../features/hub-session';
import { isSafeRedirect } from '../api/contract/safe-redirect';

const searchSchema = z.object({
  /** Where the member was going: a same-origin path only (no open redirect). */
  redirect: z.string().max(2000).refine(isSafeRedirect).optional().catch(undefined),
  /** 1 when the session ended mid-work (src/features/hub-session/session-watch.ts); the search parser reads it as a number. */
  ended: z
    .union([z.literal(1), z.literal('1')])
    .optional()
    .catch(undefined),
  /** Why a single sign-on came back without a session (server/hub/routes/oidc.ts): the page names the codes it knows. */
  sso: z.string().max(40).optional().catch(undefined),
});

export const Route = createFileRoute('/sign-in')({
  validateSearch: searchSchema,
  // Only a team hub has members: in personal mode the console connects with a key.
  beforeLoad: ({ context }) => {
    if (!context.hub) throw redirect({ to: '/connection' });
  },
  component: function SignInRoute() {
    const { redirect: redirectTo, ended, sso } = Route.useSearch();
    return <SignInPage redirectTo={redirectTo} ended={ended !== undefined} ssoFailure={sso} />;
  },
});
