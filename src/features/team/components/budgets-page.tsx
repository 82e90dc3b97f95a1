import { useMutation, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { SignedInMember } from '../../../api/contract/hub';
import { isBudgetSubscriptionId, type HubBudgets, type HubLimit, type HubSpent } from '../../../api/contract/hub-budgets';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { TextField } from '../../../components/ui/field';
import { PageHeader, Panel } from '../../../components/ui/panel';
import { Total } from '../../../components/ui/total';
import { cx } from '../../../lib/cx';
import { draftOf, percentOf, PERIODS, readDraft, type Draft, type DraftErrors, type Period, type Scope } from '../budget-draft';
import { budgetsApi } from '../budgets-api';
import { BUDGETS_KEY, budgetsQuery, teamSubscriptionsQuery } from '../budget-queries';
import { membersQuery } from '../queries';
import { ReceiptsLine } from './receipts-line';

/*
 * The hub's budgets: the organization's, each subscription's and each member's daily and monthly
 * limits, with what was spent in the hub's current day and month. Every member reads them; an
 * admin edits every limit in one form and saves it with PUT /hub/v1/budgets.
 */

const PERIOD_WORD: Record<Period, { label: string; span: string; micros: keyof HubLimit; spent: keyof HubSpent }> = {
  daily: { label: 'Daily', span: 'today', micros: 'daily_micros', spent: 'day_micros' },
  monthly: { label: 'Monthly', span: 'this month', micros: 'monthly_micros', spent: 'month_micros' },
};

interface Row {
  scope: Scope;
  /** What the row is called on screen and in its fields' labels. */
  name: string;
  note?: string;
  limit: HubLimit;
  /** Null: spend is not counted for this row as a whole (the default limit of every member). */
  spent: HubSpent | null;
}

const NO_LIMIT: HubLimit = { daily_micros: null, monthly_micros: null };
const NO_SPEND: HubSpent = { day_micros: 0, month_micros: 0 };
const union = (...lists: (readonly string[])[]) => [...new Set(lists.flat())];

export function BudgetsPage({ me }: { me: SignedInMember }) {
  const { data: budgets } = useSuspenseQuery(budgetsQuery());
  const subscriptions = useQuery(teamSubscriptionsQuery());
  // Only an admin may list the members; everyone else knows those with a limit or spend.
  const members = useQuery({ ...membersQuery(), enabled: me.role === 'admin' });
  const [added, setAdded] = useState<string[]>([]);

  const subscriptionIds = union(
    (subscriptions.data ?? []).map((s) => s.id).filter(isBudgetSubscriptionId),
    budgets.limits.subscriptions.map((l) => l.subscription_id),
    budgets.spent.subscriptions.map((s) => s.subscription_id),
    added,
  );
  const active = members.data?.members ?? [];
  const emailOf = (id: string) =>
    active.find((m) => m.id === id)?.email ?? budgets.spent.members.find((m) => m.member_id === id)?.email ?? (id === me.id ? me.email : null);
  const memberIds = union(
    active.map((m) => m.id),
    budgets.limits.members.map((l) => l.member_id),
    budgets.spent.members.map((m) => m.member_id),
  );
  // A removed member keeps their spend and limit on the hub, but a limit can be set only for an active one.
  const editableMembers = me.role === 'admin' && members.data ? memberIds.filter((id) => active.some((m) => m.id === id)) : memberIds;

  const rows: { title: string; description: string; rows: Row[] }[] = [
    {
      title: 'Organization',
      description: 'Every charged adopt of the team counts here, and what was spent outside the hub.',
      rows: [
        { scope: 'organization', name: 'Organization', limit: budgets.limits.organization, spent: budgets.spent.organization },
        {
          scope: 'per_member',
          name: 'Each member',
          note: 'The limit of every member who has none of their own, counted per member.',
          limit: budgets.limits.per_member,
          spent: null,
        },
      ],
    },
    {
      title: 'Subscriptions',
      description: 'Adopts of one subscription count against its limits.',
      rows: subscriptionIds.map((id) => ({
        scope: `subscription:${id}`,
        name: subscriptions.data?.find((s) => s.id === id)?.label || id,
        note: subscriptions.data?.find((s) => s.id === id)?.label ? id : undefined,
        limit: budgets.limits.subscriptions.find((l) => l.subscription_id === id) ?? NO_LIMIT,
        spent: budgets.spent.subscriptions.find((s) => s.subscription_id === id) ?? NO_SPEND,
      })),
    },
    {
      title: 'Members',
      description: 'A member’s own limits; without them, the limits of each member apply.',
      rows: memberIds.map((id) => ({
        scope: `member:${id}`,
        name: emailOf(id) ?? `Member ${id}`,
        note: me.role === 'admin' && members.data && !active.some((m) => m.id === id) ? 'Removed: no limit can be set' : undefined,
        limit: budgets.limits.members.find((l) => l.member_id === id) ?? NO_LIMIT,
        spent: budgets.spent.members.find((m) => m.member_id === id) ?? NO_SPEND,
      })),
    },
  ];

  return (
    <>
      <PageHeader
        title="Budgets"
        description={
          <>
            The hub checks these limits before it sends a charged adopt to the vendor; an adopt that would pass one is held for an admin to release or drop.
            Spend is counted in the hub’s own day ({budgets.day}, UTC) and month ({budgets.month}).
            {me.role !== 'admin' && ' Only an admin changes the limits.'}
          </>
        }
      />
      <ReceiptsLine budgets={budgets} me={me} />
      {me.role === 'admin' ? (
        <BudgetsEditor
          budgets={budgets}
          sections={rows}
          draft={draftOf(budgets, subscriptionIds, editableMembers)}
          onAddSubscription={(id) => setAdded((list) => union(list, [id]))}
          knownSubscriptions={subscriptionIds}
        />
      ) : (
        <div className="flex flex-col gap-4">
          {rows.map((section) => (
            <Section key={section.title} title={section.title} description={section.description} empty={section.rows.length === 0}>
              {section.rows.map((row) => (
                <LimitRow key={row.scope} row={row} />
              ))}
            </Section>
          ))}
        </div>
      )}
    </>
  );
}

function Section({
  title,
  description,
  empty,
  children,
  footer,
}: {
  title: string;
  description: string;
  empty: boolean;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <Panel aria-label={title}>
      <h2 className="text-base font-semibold">{title}</h2>
      <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-400">{description}</p>
      {empty ? <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">None yet.</p> : <ul className="mt-2 flex flex-col">{children}</ul>}
      {footer}
    </Panel>
  );
}

/** One scope's row: its name, and per period the limit (a field for an admin) and what was spent against it. */
function LimitRow({ row, field }: { row: Row; field?: (period: Period) => ReactNode }) {
  return (
    <li className="grid gap-3 border-t border-slate-200 py-3 first:border-t-0 md:grid-cols-[minmax(10rem,14rem)_1fr_1fr] dark:border-slate-700">
      <div className="min-w-0">
        <p className="font-medium [overflow-wrap:anywhere]">{row.name}</p>
        {row.note && <p className="text-xs [overflow-wrap:anywhere] text-slate-600 dark:text-slate-400">{row.note}</p>}
      </div>
      {PERIODS.map((period) => (
        <div key={period} className="flex min-w-0 flex-col gap-1.5">
          {field ? (
            field(period)
          ) : (
            <p className="text-sm">
              <span className="text-slate-600 dark:text-slate-400">{PERIOD_WORD[period].label} limit: </span>
              {row.limit[PERIOD_WORD[period].micros] === null ? 'no limit' : <Total micros={row.limit[PERIOD_WORD[period].micros]!} />}
            </p>
          )}
          {row.spent && <SpendBar name={row.name} period={period} spent={row.spent[PERIOD_WORD[period].spent]} limit={row.limit[PERIOD_WORD[period].micros]} />}
        </div>
      ))}
    </li>
  );
}

/** Spent in the period, and against a limit a bar and a percentage (named, so a screen reader hears it). */
function SpendBar({ name, period, spent, limit }: { name: string; period: Period; spent: number; limit: number | null }) {
  const percent = percentOf(spent, limit);
  const word = PERIOD_WORD[period];
  return (
    <div className="flex min-w-0 flex-col gap-1 text-xs text-slate-700 dark:text-slate-300">
      <span>
        Spent {word.span}: <Total micros={spent} className="font-semibold" />
        {limit !== null && (
          <>
            {' '}
            of <Total micros={limit} /> ({percent}%)
          </>
        )}
      </span>
      {limit !== null && (
        <meter
          aria-label={`${name} ${word.label.toLowerCase()} spend: ${percent}% of the limit`}
          min={0}
          max={Math.max(limit, 1)}
          value={Math.min(spent, Math.max(limit, 1))}
          low={limit * 0.5}
          high={limit * 0.8}
          optimum={0}
          className="h-2 w-full"
        />
      )}
    </div>
  );
}

function BudgetsEditor({
  budgets,
  sections,
  draft: stored,
  onAddSubscription,
  knownSubscriptions,
}: {
  budgets: HubBudgets;
  sections: { title: string; description: string; rows: Row[] }[];
  draft: Draft;
  onAddSubscription: (id: string) => void;
  knownSubscriptions: readonly string[];
}) {
  const queryClient = useQueryClient();
  // Only what the admin typed is kept here; every other field shows what is stored now (a save,
  // or another admin's, read back), so a stored change never overwrites an edit in progress.
  const [edits, setEdits] = useState<Partial<Draft>>({});
  const draft: Draft = { ...stored };
  for (const [scope, texts] of Object.entries(edits) as [Scope, Draft[Scope]][]) if (stored[scope]) draft[scope] = texts;
  const [errors, setErrors] = useState<DraftErrors>({});
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: budgetsApi.saveBudgets,
    onSuccess: (answer) => {
      setSaved(true);
      setEdits({});
      queryClient.setQueryData(BUDGETS_KEY, answer);
    },
  });
  const errorCount = Object.keys(errors).length;
  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        setSaved(false);
        const read = readDraft(draft);
        if ('errors' in read) {
          setErrors(read.errors);
          save.reset();
          return;
        }
        setErrors({});
        save.mutate(read.input);
      }}
    >
      {sections.map((section) => (
        <Section
          key={section.title}
          title={section.title}
          description={section.description}
          empty={section.rows.length === 0}
          footer={section.title === 'Subscriptions' && <AddSubscription known={knownSubscriptions} onAdd={onAddSubscription} />}
        >
          {section.rows.map((row) => (
            <LimitRow
              key={row.scope}
              row={row}
              field={
                draft[row.scope]
                  ? (period) => (
                      <TextField
                        label={`${row.name} ${period} limit (USD)`}
                        inputMode="decimal"
                        autoComplete="off"
                        placeholder="no limit"
                        value={draft[row.scope]![period]}
                        error={errors[`${row.scope} ${period}`]}
                        onChange={(event) => {
                          const value = event.target.value;
                          setSaved(false);
                          setEdits((e) => ({ ...e, [row.scope]: { ...(e[row.scope] ?? stored[row.scope]!), [period]: value } }));
                        }}
                      />
                    )
                  : undefined
              }
            />
          ))}
        </Section>
      ))}
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Amounts in US dollars, up to six decimals (a millionth of a dollar), at most $1,000,000 a period; blank is no limit. Saving replaces every limit at
        once.
      </p>
      {errorCount > 0 && (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {errorCount === 1 ? 'One limit cannot be read' : `${errorCount} limits cannot be read`}: nothing was saved. Correct the marked{' '}
          {errorCount === 1 ? 'field' : 'fields'}.
        </p>
      )}
      {save.error && <ErrorPanel error={save.error} />}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" disabled={save.isPending}>
          Save budgets
        </Button>
        {saved && (
          <span role="status" className="text-sm text-green-800 dark:text-green-200">
            Saved: the hub holds every adopt past these limits from now on (day {budgets.day}).
          </span>
        )}
      </div>
    </form>
  );
}

/** A subscription the team has not listed yet (or before the hub lists them): its id, checked as the hub checks it. */
function AddSubscription({ known, onAdd }: { known: readonly string[]; onAdd: (id: string) => void }) {
  const [id, setId] = useState('');
  const [error, setError] = useState<string | undefined>();
  const add = () => {
    const value = id.trim();
    if (!isBudgetSubscriptionId(value)) return setError('A subscription id: letters, digits, “.”, “_”, “:” or “-”.');
    if (known.includes(value)) return setError('That subscription is already listed.');
    setError(undefined);
    setId('');
    onAdd(value);
  };
  return (
    <div className={cx('mt-2 flex flex-wrap items-start gap-2 border-t border-slate-200 pt-3 dark:border-slate-700')}>
      <TextField
        label="Subscription id to limit"
        className="min-w-0 flex-1 sm:max-w-xs"
        autoComplete="off"
        value={id}
        error={error}
        onChange={(event) => setId(event.target.value)}
        onKeyDown={(event) => {
          // Enter adds the row rather than saving the whole form.
          if (event.key === 'Enter') {
            event.preventDefault();
            add();
          }
        }}
      />
      <Button size="sm" className="sm:mt-6" onClick={add}>
        Add subscription
      </Button>
    </div>
  );
}
