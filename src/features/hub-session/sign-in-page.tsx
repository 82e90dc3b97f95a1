import { useState, type FormEvent } from 'react';
import { hubApi } from '../../api/hub';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { Panel } from '../../components/ui/panel';
import { useHubMode } from '../../data';
import { signInError } from './sign-in-errors';

export interface SignInPageProps {
  /** Where to go once signed in (a same-origin path, checked by the route). */
  redirectTo?: string;
  /** Why the member is here: their session ended mid-work (signed out elsewhere, expired, removed). */
  ended?: boolean;
}

/**
 * The team hub's sign-in: email and password, posted to the hub on this origin, which answers with
 * an HttpOnly session cookie. The page then loads again where the member was going, so the whole
 * console (connection, local data, outbox) is composed for this member.
 */
export function SignInPage({ redirectTo, ended }: SignInPageProps) {
  const hub = useHubMode();
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
      await hubApi(hub?.origin ?? window.location.origin).signIn(email.trim(), password);
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
