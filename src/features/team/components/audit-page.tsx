import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import type { HubAuditRow, HubMember, SignedInMember } from '../../../api/contract/hub';
import { AUDIT_ACTION_GROUPS, auditActionLabel, isAuditAction } from '../../../api/contract/hub-audit-actions';
import { Button } from '../../../components/ui/button';
import { DataTable } from '../../../components/ui/data-table';
import { DateField } from '../../../components/ui/date-field';
import { TextField } from '../../../components/ui/field';
import { PageHeader, Panel } from '../../../components/ui/panel';
import { Time } from '../../../components/ui/time';
import { formatMicros } from '../../../lib/money';
import { auditExportHref } from '../api';
import { auditQuery, membersQuery } from '../queries';
import { auditNextPage, auditView, type AuditSearch } from '../search';
import { selectClass } from './team-parts';

const column = createColumnHelper<HubAuditRow>();

/** The audit log (admin, viewer): the house's data table, filtered by member, action and days, paged, and exported with the same filters. */
export function AuditPage({ me, search, onSearch }: { me: SignedInMember; search: AuditSearch; onSearch: (next: AuditSearch) => void }) {
  const { filters, cursor } = auditView(search);
  const oldestFirst = cursor.order === 'asc';
  const { data } = useSuspenseQuery(auditQuery(filters, cursor));
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
      column.accessor('action', {
        header: 'Action',
        // A person's name for it, and the code the filter's URL and the export use.
        cell: (c) => (
          <span className="inline-block min-w-28">
            {auditActionLabel(c.getValue())}
            <code className="block font-mono text-xs text-slate-500 dark:text-slate-400">{c.getValue()}</code>
          </span>
        ),
      }),
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
  // A new filter or order starts at its first page.
  const order: AuditSearch = oldestFirst ? { order: 'oldest' } : {};
  const set = (patch: Partial<AuditSearch>) => onSearch({ ...filters, ...order, ...patch });

  return (
    <>
      <PageHeader
        title="Audit"
        description={`Every change to the team and every call that reached the vendor, ${oldestFirst ? 'oldest' : 'newest'} first. Rows are never changed: each carries the hash of the one before, so the exports list them oldest first, as the chain runs.`}
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
        <div className="grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-5">
          {me.role === 'admin' ? (
            <MemberSelect members={members.data?.members ?? []} value={filters.member} onChange={(member) => set({ member })} />
          ) : (
            <MemberIdFilter value={filters.member} onChange={(member) => set({ member })} />
          )}
          <ActionSelect value={filters.action} onChange={(action) => set({ action })} />
          <DateField label="From" value={filters.from} onCommit={(from) => set({ from })} />
          <DateField label="To (included)" value={filters.to} onCommit={(to) => set({ to })} />
          <OrderSelect oldestFirst={oldestFirst} onChange={(oldest) => onSearch({ ...filters, ...(oldest ? { order: 'oldest' } : {}) })} />
        </div>
        {(filters.member || filters.action || filters.from || filters.to) && (
          <Button size="sm" variant="ghost" className="mt-2" onClick={() => onSearch(order)}>
            Clear filters
          </Button>
        )}
      </Panel>
      <DataTable table={table} caption="Audit rows" empty="No audit row matches these filters." />
      <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
        <span>
          {data.rows.length === 0 ? 'No rows' : `Rows ${data.rows[0]!.seq}–${data.rows[data.rows.length - 1]!.seq}`}
          {cursor.from !== undefined && ' (a later page)'}
        </span>
        {cursor.from !== undefined && (
          <Button size="sm" onClick={() => set({})}>
            First page
          </Button>
        )}
        {data.next !== null && (
          <Button size="sm" onClick={() => onSearch(auditNextPage(filters, cursor, data.next!))}>
            Next page
          </Button>
        )}
      </div>
    </>
  );
}

/** A labelled select of the filter row: the label above it, as the date and text fields have theirs. */
function FilterSelect({ label, value, onChange, children }: { label: string; value: string; onChange: (value: string) => void; children: ReactNode }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <select id={id} className={selectClass} value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
    </div>
  );
}

function MemberSelect({ members, value, onChange }: { members: readonly HubMember[]; value?: string; onChange: (member?: string) => void }) {
  return (
    <FilterSelect label="Member" value={value ?? ''} onChange={(v) => onChange(v || undefined)}>
      <option value="">Everyone</option>
      {members.map((m) => (
        <option key={m.id} value={m.id}>
          {m.email}
        </option>
      ))}
      {value && !members.some((m) => m.id === value) && <option value={value}>{value}</option>}
    </FilterSelect>
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
  return (
    <FilterSelect label="Action" value={value ?? ''} onChange={(v) => onChange(v || undefined)}>
      <option value="">Any action</option>
      {AUDIT_ACTION_GROUPS.map(({ group, actions }) => (
        <optgroup key={group} label={group}>
          {Object.entries(actions).map(([action, label]) => (
            <option key={action} value={action}>
              {label}
            </option>
          ))}
        </optgroup>
      ))}
      {/* An action the list does not name (an older hub's, or typed in the URL) is still the filter. */}
      {value && !isAuditAction(value) && <option value={value}>{value}</option>}
    </FilterSelect>
  );
}

function OrderSelect({ oldestFirst, onChange }: { oldestFirst: boolean; onChange: (oldestFirst: boolean) => void }) {
  return (
    <FilterSelect label="Order" value={oldestFirst ? 'oldest' : 'newest'} onChange={(v) => onChange(v === 'oldest')}>
      <option value="newest">Newest first</option>
      <option value="oldest">Oldest first</option>
    </FilterSelect>
  );
}
