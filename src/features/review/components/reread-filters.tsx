import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { ID_LIST_PATTERN } from '../../../api/contract';
import { Button } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/field';
import type { ReviewSearch } from '../search';

/** Task and campaign ID filters of a re-read; applied to the URL, so a link carries them. */
export function RereadFilters({ search }: { search: ReviewSearch }) {
  const navigate = useNavigate({ from: '/review/$subscriptionId' });
  const [tasks, setTasks] = useState(search.tasks ?? '');
  const [campaigns, setCampaigns] = useState(search.campaigns ?? '');
  const [error, setError] = useState<string>();
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const clean = (text: string) =>
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .join(',');
    const t = clean(tasks);
    const c = clean(campaigns);
    if (![t, c].every((v) => v === '' || ID_LIST_PATTERN.test(v))) {
      setError('IDs are letters, digits, - and _, separated by commas');
      return;
    }
    setError(undefined);
    void navigate({ search: (prev) => ({ ...prev, tasks: t || undefined, campaigns: c || undefined, cursor: undefined }) });
  };
  return (
    <form onSubmit={apply} className="flex flex-wrap items-center gap-2" aria-label="Re-read filters">
      <label className="flex items-center gap-2 text-sm">
        <span className="font-medium">Task IDs</span>
        <input className={`${inputClass} w-24 py-1!`} value={tasks} onChange={(e) => setTasks(e.target.value)} placeholder="1001,1002" />
      </label>
      <label className="flex items-center gap-2 text-sm">
        <span className="font-medium">Campaign IDs</span>
        <input className={`${inputClass} w-28 py-1!`} value={campaigns} onChange={(e) => setCampaigns(e.target.value)} placeholder="cmp_…" />
      </label>
      <Button type="submit" size="sm">
        Apply filters
      </Button>
      {error && <span className="text-xs text-red-700">{error}</span>}
    </form>
  );
}
