import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { apiKeySchema, type KeyVerification } from '../../api/contract';
import { Button } from '../../components/ui/button';
import { ErrorPanel } from '../../components/ui/error-panel';
import { TextField } from '../../components/ui/field';
import { PageHeader, Panel } from '../../components/ui/panel';
import { clientFor, type Connection } from '../../data';
import { SecretText } from '../../components/connection/secret-text';

function Result({ result }: { result: KeyVerification }) {
  return (
    <dl role="status" aria-label="Key verified" className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md bg-green-50 p-3 text-sm dark:bg-green-950">
      <dt className="font-medium">Organization</dt>
      <dd>
        <code>{result.org_id}</code>
      </dd>
      <dt className="font-medium">Key ID</dt>
      <dd>
        <code>{result.key_id}</code>
      </dd>
      <dt className="font-medium">Key name</dt>
      <dd>{result.key_name}</dd>
    </dl>
  );
}

/** Verify a key (spec 4.5): the active one, or one pasted here, without saving it. */
export function VerifyKeyPage({ connection }: { connection: Connection | null }) {
  const [pastedError, setPastedError] = useState<string>();
  const keyFieldId = useId();
  const active = useMutation({
    mutationFn: () => clientFor(connection).verifyKey(),
    meta: { connectionId: connection?.id },
  });
  const other = useMutation({ mutationFn: (key: string) => clientFor(connection).verifyKey(key) });

  // The field is uncontrolled and read on submit: a controlled input writes its value into the
  // `value` attribute, which puts the key in the page's HTML (anything that reads the DOM sees it).
  // It has no `name` either, so no native submission could ever carry it.
  const verifyPasted = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const field = event.currentTarget.elements.namedItem(keyFieldId);
    const parsed = apiKeySchema.safeParse(field instanceof HTMLInputElement ? field.value.trim() : '');
    if (!parsed.success) {
      setPastedError(parsed.error.issues[0]?.message);
      other.reset();
      return;
    }
    setPastedError(undefined);
    other.mutate(parsed.data);
  };

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Keys" description="Make sure a key is the one you meant: the service tells whose key it is." />
      <Panel aria-labelledby="active-key-heading">
        <h2 id="active-key-heading" className="mb-2 font-semibold">
          Active connection’s key
        </h2>
        {connection?.apiKey ? (
          <div className="flex flex-col gap-3">
            <div className="text-sm">
              {connection.name}: <SecretText value={connection.apiKey} label="Active API key" />
            </div>
            {connection.verified && (
              <p className="text-sm text-slate-700 dark:text-slate-300">
                Verified when saved: organization <code>{connection.verified.org_id}</code>, key “{connection.verified.key_name}” (
                <code>{connection.verified.key_id}</code>).
              </p>
            )}
            <div>
              <Button variant="primary" onClick={() => active.mutate()} disabled={active.isPending}>
                {active.isPending ? 'Verifying…' : 'Verify key'}
              </Button>
            </div>
            {active.data && <Result result={active.data} />}
            {active.error && <ErrorPanel error={active.error} />}
          </div>
        ) : (
          <p className="text-sm">No connected key. Connect first, or verify a key below.</p>
        )}
      </Panel>
      <Panel aria-labelledby="other-key-heading">
        <h2 id="other-key-heading" className="mb-2 font-semibold">
          Verify another key
        </h2>
        <form onSubmit={verifyPasted} noValidate className="flex flex-col gap-3">
          <TextField
            label="Key to verify"
            type="password"
            autoComplete="off"
            spellCheck={false}
            id={keyFieldId}
            error={pastedError}
            hint="Sent once to the active connection’s base URL; not saved."
          />
          <div>
            <Button type="submit" disabled={other.isPending}>
              Verify pasted key
            </Button>
          </div>
          {other.data && <Result result={other.data} />}
          {other.error && <ErrorPanel error={other.error} />}
        </form>
      </Panel>
    </div>
  );
}
