import { PageHeader, Panel } from '../../../components/ui/panel';
import { subscriptionNames, type Connection } from '../../../data';
import { useSpendInput } from '../hooks';
import { PERIODS, withLimit, type Budgets, type Level } from '../../../domain/budgets/model';
import { spentAgainst, type SpendInput } from '../../../domain/budgets/spend';
import { changeBudgets } from '../../../domain/budgets/store';
import { behindText } from '../../../domain/budgets/trusted-clock';
import { HeldDecisions } from './held-decisions';
import { LimitsForm, type LimitChanges } from './limits-form';

const spendOf = (input: SpendInput, level: Level, subscriptionId?: string) =>
  PERIODS.map((period) => ({ period, spentMicros: spentAgainst({ level, subscriptionId, period }, input) }));

/** The edited limits applied to the budgets as stored now (in the store's transaction): another tab's other limits stay. */
function applyChanges(budgets: Budgets, level: Level, subscriptionId: string | undefined, changes: LimitChanges): Budgets {
  let next = budgets;
  for (const period of PERIODS) if (period in changes) next = withLimit(next, level, subscriptionId, period, changes[period]);
  return next;
}

/**
 * Budgets of a connection's organization: limits for the organization and for each simulated
 * subscription of the connection, what is spent against each, and the decisions they hold.
 */
export function BudgetsPage({ connection }: { connection: Connection }) {
  const { input, entries, others: otherTabs, scope, release, discard, budgets, time } = useSpendInput(connection, true);
  const simulated = connection.subscriptions.filter((s) => s.kind === 'simulated');
  // Limits are read by the subscription's name (its fields' labels start with it); the ID is its hover.
  const names = subscriptionNames(
    connection,
    connection.subscriptions.map((s) => s.id),
  );
  const own = entries.filter((e) => e.state === 'held-budget');
  const others = otherTabs.filter((e) => e.state === 'held-budget');
  const save = (level: Level, subscriptionId?: string) => async (changes: LimitChanges) => {
    if (!scope) throw new Error('the outbox is not loaded yet');
    await changeBudgets(scope, (current) => applyChanges(current, level, subscriptionId, changes));
  };
  const current = budgets.data;
  return (
    <>
      <PageHeader
        title="Budgets"
        description={
          <>
            Limits on what charged decisions (simulated adopts) may spend, for the organization of “{connection.name}”. They are checked in this console, across
            its tabs, before any charged request leaves: an adopt that would pass a limit is held, never sent, until you release it or raise the limit. Spend
            counts the newest 200 usage receipts and the charged decisions on their way. Days and months are your local calendar ("today (your time)"); a visit
            is this tab since it was loaded.
          </>
        }
      />
      <div className="flex flex-col gap-4">
        {time.doubt && (
          <p
            role="alert"
            className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
          >
            The time is in doubt: this device’s clock is {behindText(time.behindMs)} behind the newest time the service reported. Spend is counted in the
            service’s time, and charged adopts are held until the clock is put right or you release them.
          </p>
        )}
        <Panel aria-label="Decisions held by budget">
          <h2 className="mb-2 text-base font-semibold">Held by budget</h2>
          <HeldDecisions own={own} others={others} names={names} onRelease={release} onDiscard={discard} />
        </Panel>
        {current ? (
          <>
            {current.damaged && (
              <p
                role="alert"
                className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
              >
                The budgets kept on this device cannot be read (damaged): {current.damaged}. No charged adopt is sent until you save the limits again below.
              </p>
            )}
            <Panel aria-label="Organization limits">
              <h2 className="mb-2 text-base font-semibold">Organization</h2>
              <LimitsForm name="Organization" limits={current.organization} spend={spendOf(input, 'organization')} onSave={save('organization')} />
            </Panel>
            {simulated.map((sub) => {
              const name = names.get(sub.id) ?? sub.id;
              return (
                <Panel key={sub.id} aria-label={`Limits of ${name}`}>
                  <h2 className="mb-2 text-base font-semibold">
                    Subscription <span title={`Subscription ${sub.id}`}>{name}</span>
                  </h2>
                  <LimitsForm
                    name={name}
                    limits={current.subscriptions[sub.id] ?? {}}
                    spend={spendOf(input, 'subscription', sub.id)}
                    onSave={save('subscription', sub.id)}
                  />
                </Panel>
              );
            })}
            {simulated.length === 0 && (
              <p className="text-sm text-slate-600 dark:text-slate-400">
                This connection lists no simulated subscription: only the organization’s limits apply.
              </p>
            )}
          </>
        ) : (
          <p role="status">{budgets.isError ? 'The budgets could not be read from this device.' : 'Reading the budgets…'}</p>
        )}
      </div>
    </>
  );
}
