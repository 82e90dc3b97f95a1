import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { SignedInMember } from '../../../api/contract/hub';
import { OVERLAP_MAX, OVERLAP_RULES, type HubDisagreement, type OverlapRule, type OverlapSetting } from '../../../api/contract/hub-overlap';
import { PayloadViewer } from '../../../components/payload';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { inputClass } from '../../../components/ui/field';
import { Badge, PageHeader, Panel } from '../../../components/ui/panel';
import { cellClass, rowClass, SimpleTable } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { formatMicros } from '../../../lib/money';
import { overlapApi } from '../overlap-api';
import { disagreementsQuery, OVERLAP_KEY, overlapSettingsQuery } from '../overlap-queries';
import { BUDGETS_KEY, HOLDS_KEY } from '../budget-queries';

/*
 * Overlap: how many reviewers vote on each item of a subscription and how their votes make the
 * team's decision (an admin sets it), and the lead's queue: items whose votes split, each shown
 * with who voted what, for an admin to adopt or dispute (their decision is the team's, sent once).
 */

const RULE_TEXT: Record<OverlapRule, string> = { unanimous: 'Unanimous', majority: 'Majority' };

export function OverlapPage({ me }: { me: SignedInMember }) {
  const settings = useSuspenseQuery(overlapSettingsQuery());
  const disagreements = useSuspenseQuery(disagreementsQuery());
  return (
    <>
      <PageHeader
        title="Overlap and the lead’s queue"
        description="With overlap N, each item is decided by N reviewers; their votes make the team’s decision under the rule, and only that is sent to the vendor, once. Votes that split wait here for the lead."
      />
      <OverlapSettings settings={settings.data.settings} canEdit={me.role === 'admin'} />
      <section aria-labelledby="lead-queue" className="mt-6">
        <h2 id="lead-queue" className="mb-2 text-base font-semibold">
          Lead’s queue <span className="font-normal text-slate-600 dark:text-slate-400">({disagreements.data.disagreements.length})</span>
        </h2>
        {disagreements.data.disagreements.length === 0 ? (
          <Panel role="status">
            <p className="text-sm">No item waits for the lead: every voted item was decided by its rule.</p>
          </Panel>
        ) : (
          <ul className="flex flex-col gap-4">
            {disagreements.data.disagreements.map((d) => (
              <Disagreement key={`${d.family}:${d.item_id}`} item={d} canSettle={me.role === 'admin'} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function OverlapSettings({ settings, canEdit }: { settings: OverlapSetting[]; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<OverlapSetting[]>(settings);
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: () => overlapApi.saveSettings(draft),
    onSuccess: () => {
      setSaved(true);
      void queryClient.invalidateQueries({ queryKey: OVERLAP_KEY });
    },
  });
  const change = (index: number, patch: Partial<OverlapSetting>) => {
    setSaved(false);
    setDraft((list) => list.map((s, i) => (i === index ? { ...s, ...patch } : s)));
  };
  const invalid = draft.some((s) => !Number.isInteger(s.overlap) || s.overlap < 1 || s.overlap > OVERLAP_MAX);
  return (
    <form
      aria-label="Overlap per subscription"
      onSubmit={(event) => {
        event.preventDefault();
        if (!invalid) save.mutate();
      }}
    >
      <SimpleTable
        caption="Overlap per subscription"
        headers={['Subscription', 'Reviewers per item', 'Rule']}
        empty="The team reviews no subscription yet."
        isEmpty={draft.length === 0}
      >
        {draft.map((s, index) => (
          <tr key={s.subscription_id} className={rowClass}>
            <td className={`${cellClass} font-mono text-xs [overflow-wrap:anywhere]`}>{s.subscription_id}</td>
            <td className={cellClass}>
              <input
                type="number"
                min={1}
                max={OVERLAP_MAX}
                className={`${inputClass} w-20`}
                aria-label={`Reviewers per item for ${s.subscription_id}`}
                value={Number.isNaN(s.overlap) ? '' : s.overlap}
                disabled={!canEdit}
                onChange={(event) => change(index, { overlap: event.target.valueAsNumber })}
              />
            </td>
            <td className={cellClass}>
              <select
                className={`${inputClass} w-36`}
                aria-label={`Rule for ${s.subscription_id}`}
                value={s.rule}
                disabled={!canEdit}
                onChange={(event) => change(index, { rule: event.target.value as OverlapRule })}
              >
                {OVERLAP_RULES.map((rule) => (
                  <option key={rule} value={rule}>
                    {RULE_TEXT[rule]}
                  </option>
                ))}
              </select>
            </td>
          </tr>
        ))}
      </SimpleTable>
      {canEdit && draft.length > 0 && (
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <Button type="submit" variant="primary" disabled={save.isPending || invalid}>
            Save overlap
          </Button>
          {invalid && <span className="text-sm text-red-700 dark:text-red-300">Reviewers per item is a whole number from 1 to {OVERLAP_MAX}.</span>}
          {saved && (
            <span role="status" className="text-sm text-green-800 dark:text-green-200">
              Saved. Items already voted on keep the setting of their first vote.
            </span>
          )}
        </div>
      )}
      {save.error && <ErrorPanel error={save.error} />}
    </form>
  );
}

function Disagreement({ item, canSettle }: { item: HubDisagreement; canSettle: boolean }) {
  const queryClient = useQueryClient();
  const settle = useMutation({
    mutationFn: (decision: 'adopt' | 'dispute') => overlapApi.settle({ family: item.family, item_id: item.item_id, decision }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: OVERLAP_KEY });
      void queryClient.invalidateQueries({ queryKey: HOLDS_KEY });
      void queryClient.invalidateQueries({ queryKey: BUDGETS_KEY });
    },
  });
  return (
    <li>
      <Panel aria-label={`Item ${item.item_id}`}>
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 className="font-mono text-sm font-semibold [overflow-wrap:anywhere]">{item.item_id}</h3>
          <span className="text-xs text-slate-600 dark:text-slate-400">
            {item.subscription_id ?? 'no subscription'} · {RULE_TEXT[item.rule].toLowerCase()} of {item.needed}
            {item.price_micros !== null && <> · {formatMicros(item.price_micros)}</>} · since <Time value={item.since} />
          </span>
        </div>
        <table className="mt-2 text-sm" aria-label={`Votes on ${item.item_id}`}>
          <thead className="sr-only">
            <tr>
              <th>Reviewer</th>
              <th>Vote</th>
              <th>Reason</th>
            </tr>
          </thead>
          <tbody>
            {item.votes.map((v) => (
              <tr key={v.member.id}>
                <td className="pr-3 [overflow-wrap:anywhere]">{v.member.email ?? v.member.id}</td>
                <td className="pr-3">
                  <Badge tone={v.vote === 'adopt' ? 'good' : 'warn'}>{v.vote}</Badge>
                </td>
                <td className="text-slate-600 dark:text-slate-400">{v.reason ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="mt-3 max-h-96 overflow-auto">
          {item.payload === null ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">The hub has not kept this item’s content.</p>
          ) : (
            <PayloadViewer value={item.payload} baseUrl={window.location.origin} />
          )}
        </div>
        {canSettle && (
          <div className="mt-3 flex flex-wrap gap-2">
            <Button variant="adopt" disabled={settle.isPending} aria-label={`Adopt ${item.item_id}`} onClick={() => settle.mutate('adopt')}>
              Adopt
            </Button>
            <Button variant="danger" disabled={settle.isPending} aria-label={`Dispute ${item.item_id}`} onClick={() => settle.mutate('dispute')}>
              Dispute
            </Button>
          </div>
        )}
        {settle.error && (
          <div className="mt-2">
            <ErrorPanel error={settle.error} />
          </div>
        )}
      </Panel>
    </li>
  );
}
