import type { SubscriptionCheck } from '../subscription-check';

const TONE: Record<SubscriptionCheck['status'], string> = {
  fine: 'text-emerald-800 dark:text-emerald-200',
  unreachable: 'text-amber-900 dark:text-amber-100',
  unknown: 'text-red-800 dark:text-red-200',
  'not-covered': 'text-red-800 dark:text-red-200',
  'no-data-access': 'text-red-800 dark:text-red-200',
  'wrong-kind': 'text-red-800 dark:text-red-200',
  refused: 'text-red-800 dark:text-red-200',
};

/** What the service said of one subscription ID, beside it (and its input's description). */
export function SubscriptionCheckNote({ id, check }: { id: string; check: SubscriptionCheck }) {
  return (
    <span id={id} className={`basis-full text-xs [overflow-wrap:anywhere] ${TONE[check.status]}`}>
      {check.status === 'fine' ? '✓ Fine: this key can read it.' : check.message}
    </span>
  );
}
