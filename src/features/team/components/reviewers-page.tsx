import { useSuspenseQuery } from '@tanstack/react-query';
import type { SignedInMember } from '../../../api/contract/hub';
import type { ReviewerFigures } from '../../../api/contract/hub-overlap';
import { PageHeader } from '../../../components/ui/panel';
import { cellClass, rowClass, SimpleTable } from '../../../components/ui/table';
import { figuresQuery } from '../overlap-queries';
import { percentText } from './agreement-panel';

/*
 * Reviewers' figures from their votes: per reviewer, over everything and per UTC day. An admin sees
 * everyone's; a reviewer their own (the hub answers only theirs).
 */

const number = (value: number | null, digits = 1) => (value === null ? '—' : value.toFixed(digits));

export function ReviewersPage({ me }: { me: SignedInMember }) {
  const { data } = useSuspenseQuery(figuresQuery());
  const numeric = `${cellClass} text-right font-mono tabular-nums`;
  return (
    <>
      <PageHeader
        title={me.role === 'admin' ? 'Reviewers’ figures' : 'Your figures'}
        description="From each reviewer’s votes: items, the share adopted, agreement with the team’s decision, and pace (time between one item and the next; gaps over 10 minutes count as breaks)."
      />
      <SimpleTable
        caption="Reviewers’ figures"
        headers={[
          'Reviewer',
          'Day (UTC)',
          { label: 'Items', align: 'right' },
          { label: 'Acceptance', align: 'right' },
          { label: 'Agreement with team', align: 'right' },
          { label: 'Items per hour', align: 'right' },
          { label: 'Seconds per item', align: 'right' },
        ]}
        empty={me.role === 'admin' ? 'No reviewer has voted yet.' : 'You have not voted on an item yet.'}
        isEmpty={data.rows.length === 0}
      >
        {data.rows.map((row: ReviewerFigures) => (
          <tr key={`${row.member.id}:${row.day}`} className={`${rowClass} ${row.day === 'all' ? 'font-semibold' : ''}`}>
            <td className={`${cellClass} [overflow-wrap:anywhere]`}>{row.member.email ?? row.member.id}</td>
            <td className={cellClass}>{row.day === 'all' ? 'All days' : row.day}</td>
            <td className={numeric}>{row.items}</td>
            <td className={numeric}>{percentText(row.acceptance)}</td>
            {/* relative: the hidden words are placed inside the table's scroller, not by the page (where they would widen it at 390 px). */}
            <td className={`${numeric} relative`}>
              {percentText(row.agreement_with_team)}
              <span className="sr-only"> of {row.decided} decided</span>
            </td>
            <td className={numeric}>{number(row.items_per_hour)}</td>
            <td className={numeric}>{number(row.seconds_per_item)}</td>
          </tr>
        ))}
      </SimpleTable>
    </>
  );
}
