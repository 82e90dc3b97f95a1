import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { inputClass } from '../../../components/ui/field';
import { Panel } from '../../../components/ui/panel';
import { Time } from '../../../components/ui/time';
import { schedulesQuery, setSchedule } from '../inbox-schedule-api';

/*
 * The subscription's scheduled pull: the hub pulls new items for the whole team every N minutes
 * (into the shared inbox, where every member's console finds them), besides any member's "Pull".
 * Everyone sees it and when the team last pulled; an admin sets it. A choice from a list: no
 * interval the hub would refuse can be typed.
 */

const CHOICES = [1, 5, 15, 30, 60, 240, 1440] as const;

const every = (minutes: number | null) =>
  minutes === null ? 'Off' : minutes % 1440 === 0 ? `Every ${minutes / 1440} day` : minutes % 60 === 0 ? `Every ${minutes / 60} h` : `Every ${minutes} min`;

export function InboxSchedulePanel({ subscriptionId, isAdmin }: { subscriptionId: string; isAdmin: boolean }) {
  const queryClient = useQueryClient();
  const schedules = useQuery(schedulesQuery());
  const current = schedules.data?.find((s) => s.subscription_id === subscriptionId);
  const [draft, setDraft] = useState<string | null>(null);
  const selectId = useId();
  const save = useMutation({
    mutationFn: (minutes: number | null) => setSchedule(subscriptionId, minutes),
    onSuccess: (all) => {
      queryClient.setQueryData(schedulesQuery().queryKey, all);
      setDraft(null);
    },
  });
  const saved = current?.every_minutes ?? null;
  const value = draft ?? (saved === null ? 'off' : String(saved));
  const choices: number[] = saved === null || (CHOICES as readonly number[]).includes(saved) ? [...CHOICES] : [...CHOICES, saved].sort((a, b) => a - b);

  return (
    <Panel className="p-4">
      <h2 className="mb-1 text-lg font-semibold">Scheduled pull</h2>
      <p className="mb-2 text-sm text-slate-600 dark:text-slate-300">
        The hub pulls new items for the team into the shared inbox, where every member’s console finds them.
      </p>
      {schedules.error && <ErrorPanel error={schedules.error} onRetry={() => void schedules.refetch()} />}
      {current && (
        <p className="mb-2 text-sm" aria-label="Schedule of this subscription">
          <span className="font-medium">{every(saved)}</span>
          {' · last pull by the team: '}
          {current.last_pulled_at ? <Time value={current.last_pulled_at} /> : 'never'}
        </p>
      )}
      {isAdmin && current && (
        <form
          className="flex flex-wrap items-end gap-2 text-sm"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(value === 'off' ? null : Number(value));
          }}
        >
          <span className="flex flex-col gap-1">
            <label htmlFor={selectId}>Pull new items</label>
            <select id={selectId} className={inputClass} value={value} onChange={(e) => setDraft(e.target.value)}>
              <option value="off">Off (members pull)</option>
              {choices.map((m) => (
                <option key={m} value={String(m)}>
                  {every(m)}
                </option>
              ))}
            </select>
          </span>
          <Button type="submit" disabled={save.isPending || draft === null}>
            Save schedule
          </Button>
          {save.isSuccess && draft === null && <span role="status">Saved.</span>}
        </form>
      )}
      {save.error && <ErrorPanel error={save.error} />}
    </Panel>
  );
}
