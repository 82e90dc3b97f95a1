import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { signInMethodsResponse } from '../../api/contract/hub-sign-in';
import { hubApi, hubConfig } from '../../api/hub';
import { request } from '../../api/http';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { Panel } from '../../components/ui/panel';
import { useHubMode } from '../../data';
import { signInError, ssoFailureText } from './sign-in-errors';

export interface SignInPageProps {
  /** Where to go once signed in (a same-origin path, checked by the route). */
  redirectTo?: string;
  /** Why the member is here: their session ended mid-work (signed out elsewhere, expired, removed). */
  ended?: boolean;
  /** A single sign-on that came back without a session, and why (the hub's `?sso=` code). */
  ssoFailure?: string;
}

/**
 * The team hub's sign-in: email and password, posted to the hub on this origin, which answers with
 * an HttpOnly session cookie; or, when the hub has a provider, single sign-on (a navigation to the
 * hub, which sends the browser to the provider and back with the same cookie). The page then loads
 * again where the member was going, so the whole console (connection, local data, outbox) is
 * composed for this member.
 */
export function SignInPage({ redirectTo, ended, ssoFailure }: SignInPageProps) {
  const hub = useHubMode();
  const origin = hub?.origin ?? window.location.origin;
  // Only a hub with a provider offers it; one that does not answer this (an older hub) offers passwords alone.
  const methods = useQuery({
    queryKey: ['hub', 'sign-in-methods', origin],
    queryFn: ({ signal }) => request(hubConfig(origin), { method: 'GET', path: '/hub/v1/sign-in-methods', schema: signInMethodsResponse, signal }),
    retry: false,
  });
  const sso = methods.data?.sso ?? null;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || !password) {
      setError('Enter your email address and password.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await hubApi(origin).signIn(email.trim(), password);
      window.location.assign(redirectTo ?? '/review');
    } catch (failure) {
      setError(signInError(failure));
      setBusy(false);
    }
  };

  return (
    <div className="mx-auto flex max-w-md flex-col gap-4 py-6">
      <h1 className="text-xl font-semibold text-slate-900 dark:text-slate-50">Sign in to the team hub</h1>
      {ended && (
        <p
          role="status"
          className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          Your session ended. Sign in again to go on where you were: decisions not yet delivered are kept in this browser and are sent once you are back.
        </p>
      )}
      {hub?.member && <p className="text-sm text-slate-600 dark:text-slate-400">Signed in as {hub.member.email}. Signing in again replaces that session.</p>}
      {ssoFailure && (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          Not signed in: {ssoFailureText(ssoFailure)}
        </p>
      )}
      {sso && (
        <Panel>
          <div className="flex flex-col gap-2">
            <Button
              variant="primary"
              disabled={busy}
              onClick={() => {
                setBusy(true);
                // A navigation, not a request: the hub sends the browser to the provider, which sends it back signed in.
                window.location.assign(`${sso.start}?${new URLSearchParams({ redirect: redirectTo ?? '/review' })}`);
              }}
            >
              Sign in with {sso.label}
            </Button>
            <p className="text-xs text-slate-600 dark:text-slate-400">
              Your organization’s sign-in; the hub signs you in as the member with the email address it confirms.
            </p>
          </div>
        </Panel>
      )}
      <Panel>
        <form className="flex flex-col gap-3" onSubmit={(event) => void submit(event)} noValidate aria-describedby={error ? 'sign-in-error' : undefined}>
          <TextField label="Email" type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <TextField
            label="Password"
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          {error && (
            <p id="sign-in-error" role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
              {error}
            </p>
          )}
          <Button type="submit" variant="primary" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </Button>
        </form>
      </Panel>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Your account is made by the hub’s admin. The vendor’s key stays on the hub: this browser never holds it.
      </p>
    </div>
  );
}
