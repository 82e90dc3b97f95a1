import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { HubVendorKey } from '../../../api/contract/hub';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog, InfoDialog } from '../../../components/ui/dialogs';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { TextField } from '../../../components/ui/field';
import { Badge, PageHeader, Panel } from '../../../components/ui/panel';
import { cellClass, rowClass, SimpleTable } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { hubApi } from '../api';
import { HUB_QUERY_KEY, vendorKeysQuery } from '../queries';
import { SecretFields } from './secret-fields';

/** "a, b" or "*" → ['a', 'b'] / ['*']. */
const subscriptionList = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** Vendor keys (admin): names, subscriptions, whether a JWT, rotation; add, rotate, remove. The key goes in and never comes out. */
export function VendorKeysPage() {
  const { data } = useSuspenseQuery(vendorKeysQuery());
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: [...HUB_QUERY_KEY, 'vendor-keys'] });
  const [rotating, setRotating] = useState<HubVendorKey | null>(null);
  const [removing, setRemoving] = useState<HubVendorKey | null>(null);
  const remove = useMutation({ mutationFn: (name: string) => hubApi.removeVendorKey(name), onSuccess: () => setRemoving(null), onSettled: refresh });

  return (
    <>
      <PageHeader
        title="Vendor keys"
        description="The keys the hub calls the vendor with, sealed on the hub. Members never see them: they sign in, and the hub attaches the key that covers the subscription."
      />
      <AddVendorKey onAdded={refresh} />
      <div className="mt-4">
        <SimpleTable
          caption="Vendor keys"
          headers={['Name', 'Subscriptions', 'JWT', 'Added', 'Rotated', 'Actions']}
          empty="No vendor key yet."
          isEmpty={data.vendor_keys.length === 0}
        >
          {data.vendor_keys.map((key) => (
            <tr key={key.id} className={rowClass}>
              <td className={`${cellClass} min-w-32 font-medium [overflow-wrap:anywhere]`}>{key.name}</td>
              <td className={`${cellClass} min-w-40 [overflow-wrap:anywhere]`}>{key.subscriptions.includes('*') ? 'All' : key.subscriptions.join(', ')}</td>
              <td className={cellClass}>{key.has_jwt ? <Badge tone="good">Has JWT</Badge> : <Badge>No JWT</Badge>}</td>
              <td className={cellClass}>
                <Time value={key.created_at} />
              </td>
              <td className={cellClass}>{key.rotated_at ? <Time value={key.rotated_at} /> : 'Never'}</td>
              <td className={cellClass}>
                <div className="flex flex-wrap gap-1">
                  <Button size="sm" aria-label={`Rotate ${key.name}`} onClick={() => setRotating(key)}>
                    Rotate
                  </Button>
                  <Button size="sm" variant="ghost" aria-label={`Remove ${key.name}`} onClick={() => setRemoving(key)}>
                    Remove
                  </Button>
                </div>
              </td>
            </tr>
          ))}
        </SimpleTable>
      </div>
      <InfoDialog open={rotating !== null} onOpenChange={(open) => !open && setRotating(null)} title={`Rotate ${rotating?.name ?? ''}`}>
        {rotating && (
          <RotateForm
            name={rotating.name}
            onDone={() => {
              setRotating(null);
              void refresh();
            }}
          />
        )}
      </InfoDialog>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.name ?? ''}?`}
        confirmLabel="Remove key"
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => removing && remove.mutate(removing.name)}
        onCancel={() => {
          setRemoving(null);
          remove.reset();
        }}
      >
        The hub forgets this key; pulls and decisions on its subscriptions stop until another key covers them.
      </ConfirmDialog>
    </>
  );
}

function AddVendorKey({ onAdded }: { onAdded: () => void }) {
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const [jwt, setJwt] = useState('');
  const [subscriptions, setSubscriptions] = useState('*');
  const [added, setAdded] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: hubApi.addVendorKey,
    onSuccess: (answer) => {
      setAdded(answer.vendor_key.name);
      setName('');
      setSubscriptions('*');
      onAdded();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAdded(null);
    add.mutate({ name: name.trim(), key: key.trim(), ...(jwt.trim() ? { jwt: jwt.trim() } : {}), subscriptions: subscriptionList(subscriptions) });
    // The secrets leave the page with the request, whatever its answer: a failure asks for them again.
    setKey('');
    setJwt('');
  };
  return (
    <Panel aria-labelledby="add-vendor-key">
      <h2 id="add-vendor-key" className="text-base font-semibold">
        Add a vendor key
      </h2>
      <form onSubmit={submit} className="mt-2 grid gap-3 md:grid-cols-2">
        <TextField
          label="Name"
          required
          autoComplete="off"
          value={name}
          onChange={(e) => setName(e.target.value)}
          hint="Letters, digits, . - _ (e.g. production)."
        />
        <TextField
          label="Subscriptions"
          required
          autoComplete="off"
          value={subscriptions}
          onChange={(e) => setSubscriptions(e.target.value)}
          hint="Subscription IDs separated by commas, or * for every one."
        />
        <SecretFields keyValue={key} jwtValue={jwt} onKey={setKey} onJwt={setJwt} />
        <div className="md:col-span-2">
          <Button type="submit" variant="primary" disabled={add.isPending || name.trim() === '' || key.trim() === ''}>
            Add key
          </Button>
        </div>
      </form>
      {add.error && (
        <div className="mt-3">
          <ErrorPanel error={add.error} />
        </div>
      )}
      {added && (
        <p role="status" className="mt-3 text-sm text-green-800 dark:text-green-200">
          Key {added} added. It is sealed on the hub and will not be shown again.
        </p>
      )}
    </Panel>
  );
}

function RotateForm({ name, onDone }: { name: string; onDone: () => void }) {
  const [key, setKey] = useState('');
  const [jwt, setJwt] = useState('');
  const rotate = useMutation({ mutationFn: (body: { key: string; jwt?: string }) => hubApi.rotateVendorKey(name, body), onSuccess: onDone });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rotate.mutate({ key: key.trim(), ...(jwt.trim() ? { jwt: jwt.trim() } : {}) });
    setKey('');
    setJwt('');
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-3">
      <p>The new key replaces the old one at once. A JWT left empty removes the old JWT.</p>
      <SecretFields keyValue={key} jwtValue={jwt} onKey={setKey} onJwt={setJwt} />
      {rotate.error && <ErrorPanel error={rotate.error} />}
      <div>
        <Button type="submit" variant="primary" disabled={rotate.isPending || key.trim() === ''}>
          Rotate key
        </Button>
      </div>
    </form>
  );
}
