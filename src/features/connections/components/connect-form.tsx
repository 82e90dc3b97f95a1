import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { API_KEY_SHAPE } from '../../../api/contract';
import { ApiError, describeError, NetworkError } from '../../../api/errors';
import { fetchLocalDemo } from '../../../api/local-demo';
import { Button } from '../../../components/ui/button';
import { inputClass, TextField } from '../../../components/ui/field';
import { jwtInfo, type Connection, type ConnectionSubscription } from '../../../data';
import { connectionFormSchema } from '../connection-form-schema';
import { consoleOrigin, verifyNewKey } from '../../../data';
import { checkKey, checkSubscriptions, isRefused, type SubscriptionCheck } from '../subscription-check';
import { SubscriptionCheckNote } from './subscription-check-note';

/** How a connection was saved: verified by the service, or explicitly without (service unreachable). */
export type SaveOutcome = 'verified' | 'kept-key' | 'unverified' | 'unreachable';

/** Why a key could not be verified: refused (never saved), or the service did not answer. */
type VerifyProblem = { kind: 'unreachable' | 'other'; message: string; connection: Connection };

interface FormState {
  name: string;
  baseUrl: string;
  apiKey: string;
  jwt: string;
  subscriptions: ConnectionSubscription[];
  remember: boolean;
}

const emptyForm = (): FormState => ({
  name: '',
  baseUrl: consoleOrigin(),
  apiKey: '',
  jwt: '',
  subscriptions: [{ id: '', kind: 'live' }],
  remember: false,
});

const newId = () => (globalThis.crypto?.randomUUID?.() ?? `c${Date.now()}${Math.random()}`).slice(0, 36);

/**
 * Connect or replace a key. The key and the JWT are checked for form before anything is
 * sent; the key is never placed in the URL and stays masked unless revealed.
 */
export function ConnectForm({ editing, onSaved }: { editing?: Connection; onSaved: (connection: Connection, outcome: SaveOutcome) => void }) {
  const [form, setForm] = useState<FormState>(() =>
    editing
      ? {
          ...emptyForm(),
          ...editing,
          apiKey: '',
          jwt: editing.jwt ?? '',
          subscriptions: editing.subscriptions.length ? editing.subscriptions : emptyForm().subscriptions,
        }
      : emptyForm(),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [revealKey, setRevealKey] = useState(false);
  const [problem, setProblem] = useState<VerifyProblem | null>(null);
  // What the service said of each subscription ID (by kind and ID), at the last Connect or Save.
  const [checks, setChecks] = useState<ReadonlyMap<string, SubscriptionCheck>>(new Map());
  const [refusedCount, setRefusedCount] = useState(0);
  const verify = useMutation({
    // The key first (a refused key is never saved), then each subscription ID with it.
    mutationFn: async ({ connection, keptKey }: { connection: Connection; keptKey: boolean }) => {
      const result = keptKey ? connection.verified : await verifyNewKey(connection.baseUrl, connection.apiKey);
      const verified = result && { org_id: result.org_id, key_id: result.key_id, key_name: result.key_name };
      return { verified, checks: await checkSubscriptions(connection.baseUrl, connection.apiKey, connection.subscriptions) };
    },
    onSuccess: ({ verified, checks: results }, { connection, keptKey }) => {
      const saved = { ...connection, verified };
      setChecks(new Map(connection.subscriptions.map((sub, i) => [checkKey(sub), results[i]!])));
      const refused = results.filter(isRefused).length;
      setRefusedCount(refused);
      // A refused ID is never saved: the user sees why beside it, and fixes or removes it.
      if (refused > 0) return;
      const unchecked = results.filter((r) => r.status === 'unreachable').length;
      if (unchecked > 0) {
        setProblem({
          kind: 'unreachable',
          message: `The service did not answer for ${unchecked === 1 ? 'one subscription' : `${unchecked} subscriptions`}, so ${unchecked === 1 ? 'it' : 'they'} could not be checked.`,
          connection: saved,
        });
        return;
      }
      onSaved(saved, keptKey ? 'kept-key' : 'verified');
    },
    onError: (error, { connection }) => {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        // A key the service refuses is never saved.
        setErrors({ apiKey: `The service refused this key${error.code ? ` (${error.code})` : ''}: ${describeError(error).message}` });
        return;
      }
      const message =
        error instanceof NetworkError
          ? `The service at ${connection.baseUrl} cannot be reached (${error.message}), so the key could not be verified.`
          : `The key could not be verified: ${describeError(error).title}: ${describeError(error).message}.`;
      setProblem({ kind: error instanceof NetworkError ? 'unreachable' : 'other', message, connection });
    },
  });
  // Editing a connected connection: a blank key field keeps its key.
  const keepsKey = !!editing?.apiKey && form.apiKey === '';
  const demo = useQuery({
    queryKey: ['dds', 'local-demo', consoleOrigin()],
    queryFn: ({ signal }) => fetchLocalDemo(consoleOrigin(), signal),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });

  const update = <K extends keyof FormState>(field: K, value: FormState[K]) => setForm((f) => ({ ...f, [field]: value }));
  const updateSubscription = (index: number, change: Partial<ConnectionSubscription>) =>
    update(
      'subscriptions',
      form.subscriptions.map((s, i) => (i === index ? { ...s, ...change } : s)),
    );

  const useDemo = () => {
    if (!demo.data) return;
    setForm({
      name: 'Local demo',
      baseUrl: consoleOrigin(),
      apiKey: demo.data.api_key,
      jwt: demo.data.jwt ?? '',
      subscriptions: demo.data.subscriptions.map((s) => ({ id: s.subscription_id, kind: s.kind, label: s.name })),
      remember: false,
    });
    setErrors({});
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const parsed = connectionFormSchema.safeParse({
      ...form,
      apiKey: keepsKey ? editing.apiKey : form.apiKey,
      id: editing?.id ?? newId(),
      subscriptions: form.subscriptions.filter((s) => s.id.trim() !== ''),
    });
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === 'subscriptions' ? `subscriptions.${String(issue.path[1])}` : String(issue.path[0]);
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setRefusedCount(0);
    // The same key at the same place needs no new verify-key (a new JWT or other subscriptions);
    // the subscriptions are checked either way.
    const keptKey = keepsKey && parsed.data.baseUrl === editing.baseUrl;
    verify.mutate({ connection: keptKey ? { ...parsed.data, verified: editing.verified } : parsed.data, keptKey });
  };

  const jwt = form.jwt.trim() ? jwtInfo(form.jwt.trim()) : null;

  return (
    <form onSubmit={submit} noValidate aria-label={editing ? 'Edit connection' : 'Connect'} className="flex max-w-2xl flex-col gap-4">
      {!editing && demo.data && (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-brand-100 bg-brand-50 p-3 text-sm dark:border-brand-700 dark:bg-brand-700/20">
          <span>This console is served by a local Data Delivery Service with demo data.</span>
          <Button variant="secondary" size="sm" onClick={useDemo}>
            Use the local demo
          </Button>
        </div>
      )}
      <TextField label="Name" value={form.name} onChange={(e) => update('name', e.target.value)} error={errors.name} placeholder="Production" />
      <TextField
        label="Base URL"
        value={form.baseUrl}
        onChange={(e) => update('baseUrl', e.target.value)}
        error={errors.baseUrl}
        hint="Where the Data Delivery Service answers; the console's own origin by default."
        inputMode="url"
      />
      <div className="flex items-end gap-2">
        <TextField
          className="flex-1"
          label="API key"
          type={revealKey ? 'text' : 'password'}
          autoComplete="off"
          spellCheck={false}
          value={form.apiKey}
          onChange={(e) => update('apiKey', e.target.value.trim())}
          error={errors.apiKey}
          placeholder={keepsKey ? 'Unchanged' : undefined}
          hint={
            editing?.apiKey
              ? `Leave blank to keep the current key. A new one is ${API_KEY_SHAPE}; the service verifies it before it is saved.`
              : `${API_KEY_SHAPE}; its form is checked here, then the service verifies it before it is saved.`
          }
        />
        <Button variant="ghost" aria-pressed={revealKey} onClick={() => setRevealKey((r) => !r)} className="mb-6">
          {revealKey ? 'Hide' : 'Reveal'}
        </Button>
      </div>
      <TextField
        label="Dashboard JWT (optional)"
        type="password"
        autoComplete="off"
        spellCheck={false}
        value={form.jwt}
        onChange={(e) => update('jwt', e.target.value)}
        error={
          errors.jwt ??
          (jwt && 'error' in jwt ? jwt.error : jwt && 'expired' in jwt && jwt.expired ? 'This JWT has expired: task previews will be refused' : undefined)
        }
        hint={jwt && 'expiresAt' in jwt && jwt.expiresAt && !jwt.expired ? `Expires ${jwt.expiresAt.toLocaleString()}` : 'Needed only for task previews.'}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">Subscriptions</legend>
        <p className="text-xs text-slate-600 dark:text-slate-400">No endpoint lists subscriptions: enter the IDs you work with.</p>
        {form.subscriptions.map((sub, index) => {
          const check = sub.id.trim() ? checks.get(checkKey(sub)) : undefined;
          const noteId = `subscription-check-${index}`;
          return (
            <div key={index} className="flex flex-wrap items-center gap-2">
              <input
                aria-label={`Subscription ${index + 1} ID`}
                aria-invalid={check && isRefused(check) ? true : undefined}
                aria-describedby={check ? noteId : undefined}
                className={`${inputClass} w-64 max-w-full`}
                value={sub.id}
                onChange={(e) => updateSubscription(index, { id: e.target.value })}
                placeholder="sub_…"
              />
              <select
                aria-label={`Subscription ${index + 1} kind`}
                className={inputClass}
                value={sub.kind}
                onChange={(e) => updateSubscription(index, { kind: e.target.value as ConnectionSubscription['kind'] })}
              >
                <option value="live">Live</option>
                <option value="simulated">Simulated</option>
              </select>
              {sub.label && <span className="text-xs text-slate-600 dark:text-slate-400">{sub.label}</span>}
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove subscription ${index + 1}`}
                onClick={() =>
                  update(
                    'subscriptions',
                    form.subscriptions.filter((_, i) => i !== index),
                  )
                }
              >
                Remove
              </Button>
              {errors[`subscriptions.${index}`] && <span className="text-xs text-red-700">{errors[`subscriptions.${index}`]}</span>}
              {check && <SubscriptionCheckNote id={noteId} check={check} />}
            </div>
          );
        })}
        {refusedCount > 0 && (
          <p role="alert" className="text-sm font-medium text-red-800 dark:text-red-200">
            {refusedCount === 1 ? 'One subscription was' : `${refusedCount} subscriptions were`} refused, so nothing was saved: fix or remove{' '}
            {refusedCount === 1 ? 'it' : 'them'}, then {!editing ? 'Connect' : 'save'} again.
          </p>
        )}
        <div>
          <Button size="sm" onClick={() => update('subscriptions', [...form.subscriptions, { id: '', kind: 'live' }])}>
            Add subscription
          </Button>
        </div>
      </fieldset>
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" className="mt-1" checked={form.remember} onChange={(e) => update('remember', e.target.checked)} />
        <span>
          Remember on this device
          <span className="block text-xs text-slate-600 dark:text-slate-400">
            {form.remember
              ? 'The key is kept in this browser’s local storage until you disconnect.'
              : 'The key is kept for this tab only (session storage) and forgotten when it closes.'}
          </span>
        </span>
      </label>
      {problem && (
        <div
          role="alert"
          className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          <p>{problem.message} Nothing was saved.</p>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={() => onSaved(problem.connection, problem.kind === 'unreachable' ? 'unreachable' : 'unverified')}>
              Save without verifying
            </Button>
          </div>
        </div>
      )}
      <div>
        <Button type="submit" variant="primary" disabled={verify.isPending}>
          {verify.isPending ? 'Checking the key and subscriptions…' : !editing ? 'Connect' : keepsKey ? 'Save changes' : 'Save key'}
        </Button>
      </div>
    </form>
  );
}
