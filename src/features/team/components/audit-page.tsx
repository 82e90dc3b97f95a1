import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useId, useMemo, useState, type FormEvent } from 'react';
import type { HubAuditRow, HubMember } from '../../../api/contract/hub';
import { Button } from '../../../components/ui/button';
import { DataTable } from '../../../components/ui/data-table';
import { DateField } from '../../../components/ui/date-field';
import { TextField } from '../../../components/ui/field';
import { PageHeader, Panel } from '../../../components/ui/panel';
import { Time } from '../../../components/ui/time';
import { formatMicros } from '../../../lib/money';
import { auditExportHref } from '../api';
import { auditQuery, membersQuery } from '../queries';
import type { AuditSearch } from '../search';
import { selectClass } from './team-parts';

/** The actions the hub records (docs/hub.md "The audit log"); another one in the URL is offered too. */
const ACTIONS = [
  'session.sign_in',
  'session.sign_out',
  'session.sign_out_all',
  'member.add',
  'member.role',
  'member.remove',
  'token.create',
  'token.revoke',
  'vendor_key.add',
  'vendor_key.rotate',
  'vendor_key.remove',
  'settings.update',
  'v1.pull',
  'v1.adopt',
  'v1.dispute',
];

const column = createColumnHelper<HubAuditRow>();

/** The audit log (admin, viewer): the house's data table, filtered by member, action and days, paged, and exported with the same filters. */
export function AuditPage({ me, search, onSearch }: { me: HubMember; search: AuditSearch; onSearch: (next: AuditSearch) => void }) {
  const { after, ...filters } = search;
  const { data } = useSuspenseQuery(auditQuery(filters, after));
  // Only an admin may list members: a viewer filters by a member's ID.
  const members = useQuery({ ...membersQuery(), enabled: me.role === 'admin' });
  const emails = useMemo(() => new Map((members.data?.members ?? []).map((m) => [m.id, m.email])), [members.data]);
  const columns = useMemo(
    () => [
      column.accessor('seq', { header: '#' }),
      column.accessor('at', { header: 'When', cell: (c) => <Time value={c.getValue()} /> }),
      column.accessor('actor_id', {
        header: 'Member',
        cell: (c) => (
          <span className="inline-block min-w-32 [overflow-wrap:anywhere]">
            {c.getValue() === null ? 'system' : (emails.get(c.getValue()!) ?? c.getValue())}
          </span>
        ),
      }),
      column.accessor('action', { header: 'Action', cell: (c) => <code className="font-mono text-xs">{c.getValue()}</code> }),
      column.accessor('target', {
        header: 'Target',
        cell: (c) => <span className="inline-block min-w-32 [overflow-wrap:anywhere]">{c.getValue() ?? ''}</span>,
      }),
      column.accessor('subscription_id', { header: 'Subscription', cell: (c) => c.getValue() ?? '' }),
      column.accessor('item_id', { header: 'Item', cell: (c) => <span className="[overflow-wrap:anywhere]">{c.getValue() ?? ''}</span> }),
      column.accessor('amount_micros', { header: 'Amount', cell: (c) => (c.getValue() === null ? '' : formatMicros(c.getValue()!)) }),
      column.accessor('outcome', { header: 'Outcome' }),
    ],
    [emails],
  );
  const table = useReactTable({ data: data.rows, columns, getCoreRowModel: getCoreRowModel(), enableSorting: false });
  const set = (patch: Partial<AuditSearch>) => onSearch({ ...filters, ...patch, after: undefined });

  return (
    <>
      <PageHeader
        title="Audit"
        description="Every change to the team and every call that reached the vendor, oldest first. Rows are never changed: each carries the hash of the one before."
        actions={
          <>
            <a
              className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium dark:border-slate-600"
              href={auditExportHref(filters, 'csv')}
              download
            >
              Export CSV
            </a>
            <a
              className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium dark:border-slate-600"
              href={auditExportHref(filters, 'jsonl')}
              download
            >
              Export JSON Lines
            </a>
          </>
        }
      />
      <Panel aria-label="Filters" className="mb-4">
        <div className="grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
          {me.role === 'admin' ? (
            <MemberSelect members={members.data?.members ?? []} value={filters.member} onChange={(member) => set({ member })} />
          ) : (
            <MemberIdFilter value={filters.member} onChange={(member) => set({ member })} />
          )}
          <ActionSelect value={filters.action} onChange={(action) => set({ action })} />
          <DateField label="From" value={filters.from} onCommit={(from) => set({ from })} />
          <DateField label="To (included)" value={filters.to} onCommit={(to) => set({ to })} />
        </div>
        {(filters.member || filters.action || filters.from || filters.to) && (
          <Button size="sm" variant="ghost" className="mt-2" onClick={() => onSearch({})}>
            Clear filters
          </Button>
        )}
      </Panel>
      <DataTable table={table} caption="Audit rows" empty="No audit row matches these filters." />
      <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
        <span>
          {data.rows.length === 0 ? 'No rows' : `Rows ${data.rows[0]!.seq}–${data.rows[data.rows.length - 1]!.seq}`}
          {after !== undefined && ' (a later page)'}
        </span>
        {after !== undefined && (
          <Button size="sm" onClick={() => onSearch(filters)}>
            First page
          </Button>
        )}
        {data.next !== null && (
          <Button size="sm" onClick={() => onSearch({ ...filters, after: data.next! })}>
            Next page
          </Button>
        )}
      </div>
    </>
  );
}

function MemberSelect({ members, value, onChange }: { members: readonly HubMember[]; value?: string; onChange: (member?: string) => void }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium">
        Member
      </label>
      <select id={id} className={selectClass} value={value ?? ''} onChange={(e) => onChange(e.target.value || undefined)}>
        <option value="">Everyone</option>
        {members.map((m) => (
          <option key={m.id} value={m.id}>
            {m.email}
          </option>
        ))}
        {value && !members.some((m) => m.id === value) && <option value={value}>{value}</option>}
      </select>
    </div>
  );
}

function MemberIdFilter({ value, onChange }: { value?: string; onChange: (member?: string) => void }) {
  const [text, setText] = useState(value ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange(text.trim() || undefined);
  };
  return (
    <form onSubmit={submit} className="flex items-end gap-2">
      <TextField label="Member ID" value={text} onChange={(e) => setText(e.target.value)} className="flex-1" />
      <Button type="submit" size="sm">
        Apply
      </Button>
    </form>
  );
}

function ActionSelect({ value, onChange }: { value?: string; onChange: (action?: string) => void }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium">
        Action
      </label>
      <select id={id} className={selectClass} value={value ?? ''} onChange={(e) => onChange(e.target.value || undefined)}>
        <option value="">Any action</option>
        {[...ACTIONS, ...(value && !ACTIONS.includes(value) ? [value] : [])].map((action) => (
          <option key={action} value={action}>
            {action}
          </option>
        ))}
      </select>
    </div>
  );
}
