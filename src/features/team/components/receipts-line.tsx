import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SignedInMember } from '../../../api/contract/hub';
import type { HubBudgets } from '../../../api/contract/hub-budgets';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { Panel } from '../../../components/ui/panel';
import { Time } from '../../../components/ui/time';
import { Total } from '../../../components/ui/total';
import { budgetsApi } from '../budgets-api';
import { BUDGETS_KEY } from '../budget-queries';

/** Why the last read failed, in words (the hub's codes otherwise). */
const WHY: Record<string, string> = {
  UPSTREAM_UNREACHABLE: 'the vendor could not be reached',
  UPSTREAM_TIMEOUT: 'the vendor did not answer in time',
  UPSTREAM_BAD_RESPONSE: 'the vendor’s answer was not its usage',
  NO_UPSTREAM: 'the hub has no vendor to read from',
  NO_VENDOR_KEY: 'the hub holds no vendor key',
};

/**
 * Spend outside the hub (the vendor's receipts the hub did not cause: another key, a script),
 * which the organization's limits count, and when the hub last read the receipts. A vendor away
 * leaves the last figures, and this says so. An admin may read them at once.
 */
export function ReceiptsLine({ budgets, me }: { budgets: HubBudgets; me: SignedInMember }) {
  const client = useQueryClient();
  const sync = useMutation({
    mutationFn: budgetsApi.syncReceipts,
    onSuccess: (fresh) => client.setQueryData(BUDGETS_KEY, fresh),
  });
  const { receipts, spent } = budgets;
  const failed = receipts.outcome !== null && receipts.outcome !== 'ok';
  return (
    <Panel aria-label="Spend outside the hub" className="mb-4">
      <p className="text-sm">
        Spent outside the hub (other keys, scripts), counted in the organization’s limits: <Total micros={spent.outside.day_micros} className="font-semibold" />{' '}
        today, <Total micros={spent.outside.month_micros} className="font-semibold" /> this month.
      </p>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400" role="status">
        {receipts.synced_at ? (
          <>
            Vendor receipts last read <Time value={receipts.synced_at} />.
          </>
        ) : (
          'Vendor receipts not read yet.'
        )}
        {failed && receipts.attempted_at && (
          <>
            {' '}
            The last attempt (<Time value={receipts.attempted_at} />) failed: {WHY[receipts.outcome!] ?? receipts.outcome}
            {receipts.synced_at ? '; these are the figures of the last read.' : '.'}
          </>
        )}
      </p>
      {me.role === 'admin' && (
        <Button className="mt-2" variant="secondary" disabled={sync.isPending} onClick={() => sync.mutate()}>
          {sync.isPending ? 'Reading receipts…' : 'Read receipts now'}
        </Button>
      )}
      {sync.error && <ErrorPanel error={sync.error} />}
    </Panel>
  );
}
