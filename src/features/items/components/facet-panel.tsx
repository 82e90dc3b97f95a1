import { memo, useEffect, useId, useRef, useState } from 'react';
import { DateField } from '../../../components/ui/date-field';
import { inputClass } from '../../../components/ui/field';
import { cx } from '../../../lib/cx';
import { microsToDecimal } from '../../../lib/money';
import { useNames } from '../../../data';
import { joinList, splitList, TRIAGE_STATES, type Facets, type ListFacet, type TriageFilters } from '../../../domain/triage';
import { facetValue, sortFacetValues } from '../facet-values';

export type SetFilters = (change: Partial<TriageFilters>, options?: { replace?: boolean }) => void;

const LIST_LABELS: Record<ListFacet, string> = {
  state: 'Decision',
  grade: 'Grade',
  source: 'Source',
  task: 'Task',
  campaign: 'Campaign',
  vertical: 'Vertical',
  topic: 'Topic',
};
/** Values shown before "Show all" (a subscription may span hundreds of tasks). */
const SHOWN = 12;

/** One list facet: a checkbox per value with how many items have it under the other filters. */
function ListFacetGroup({ facet, counts, selected, onChange }: { facet: ListFacet; counts: Map<string, number>; selected: string; onChange: SetFilters }) {
  const [all, setAll] = useState(false);
  const id = useId();
  const names = useNames();
  const chosen = splitList(selected);
  // Every state; other values those counted and those chosen. In a fixed, readable order (facet-values.ts).
  const values = sortFacetValues(facet, facet === 'state' ? TRIAGE_STATES : [...counts.keys(), ...chosen], names);
  if (values.length === 0) return null;
  // A chosen value stays in view even past the first few.
  const shown = all ? values : values.filter((value, i) => i < SHOWN || chosen.includes(value));
  const toggle = (value: string, on: boolean) => {
    const next = on ? [...chosen, value] : chosen.filter((v) => v !== value);
    onChange({ [facet]: joinList(next) });
  };
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 text-sm font-semibold">{LIST_LABELS[facet]}</legend>
      {shown.map((value, i) => {
        const count = counts.get(value) ?? 0;
        const text = facetValue(facet, value, names);
        return (
          <label key={value} className="flex items-center gap-2 text-sm" title={text.title}>
            <input
              type="checkbox"
              checked={chosen.includes(value)}
              onChange={(e) => toggle(value, e.target.checked)}
              aria-label={`${LIST_LABELS[facet]} ${text.label}`}
              aria-describedby={`${id}-${i}`}
            />
            <span className={cx('min-w-0 flex-1 truncate', count === 0 && 'text-slate-500')}>{text.label}</span>
            <span aria-hidden="true" className="text-xs text-slate-600 tabular-nums dark:text-slate-400">
              {count.toLocaleString('en-US')}
            </span>
            <span id={`${id}-${i}`} className="sr-only">{`${count.toLocaleString('en-US')} ${count === 1 ? 'item' : 'items'}`}</span>
          </label>
        );
      })}
      {values.length > SHOWN && (
        <button type="button" className="self-start text-xs text-brand-600 underline dark:text-brand-100" onClick={() => setAll(!all)}>
          {all ? 'Show fewer' : `Show all ${values.length} ${LIST_LABELS[facet].toLowerCase()} values`}
        </button>
      )}
    </fieldset>
  );
}

/**
 * A number typed into a filter: applied as the user pauses or leaves the field (Enter applies at
 * once), not on every keystroke. A value changed elsewhere (back, forward, clear) replaces it
 * unless the user is typing in it.
 */
function NumberInput({
  label,
  value,
  placeholder,
  step,
  onCommit,
}: {
  label: string;
  value: number | undefined;
  placeholder?: string;
  step: string;
  onCommit: (v: number | undefined) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const id = useId();
  useEffect(() => {
    const input = ref.current;
    if (input && document.activeElement !== input) input.value = value === undefined ? '' : String(value);
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const commit = () => {
    clearTimeout(timer.current);
    const text = ref.current?.value.trim() ?? '';
    const next = text === '' ? undefined : Number(text);
    if (next !== undefined && !Number.isFinite(next)) return;
    if (next !== value) onCommit(next);
  };
  return (
    <div className="flex min-w-0 flex-1 flex-col gap-0.5">
      <label htmlFor={id} className="text-xs text-slate-700 dark:text-slate-300">
        {label}
      </label>
      <input
        ref={ref}
        id={id}
        type="number"
        inputMode="decimal"
        step={step}
        defaultValue={value === undefined ? '' : String(value)}
        placeholder={placeholder}
        className={cx(inputClass, 'w-full px-2 py-1')}
        onChange={() => {
          clearTimeout(timer.current);
          timer.current = setTimeout(commit, 400);
        }}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
      />
    </div>
  );
}

function RangeGroup({
  legend,
  names,
  min,
  max,
  bounds,
  step,
  onChange,
}: {
  legend: string;
  names: [keyof TriageFilters, keyof TriageFilters];
  min: number | undefined;
  max: number | undefined;
  bounds: { min: string | undefined; max: string | undefined };
  step: string;
  onChange: SetFilters;
}) {
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 text-sm font-semibold">{legend}</legend>
      <div className="flex gap-2">
        <NumberInput
          label={`${legend} from`}
          value={min}
          placeholder={bounds.min}
          step={step}
          onCommit={(v) => onChange({ [names[0]]: v }, { replace: true })}
        />
        <NumberInput label={`${legend} to`} value={max} placeholder={bounds.max} step={step} onCommit={(v) => onChange({ [names[1]]: v }, { replace: true })} />
      </div>
    </fieldset>
  );
}

const text = (n: number | null) => (n === null ? undefined : String(n));
const usd = (micros: number | null) => (micros === null ? undefined : microsToDecimal(micros));

/** Every filter of the items view, each with its counts or bounds under the other filters. */
export const FacetPanel = memo(function FacetPanel({ facets, filters, onChange }: { facets: Facets; filters: TriageFilters; onChange: SetFilters }) {
  const { ranges } = facets;
  return (
    <div className="flex flex-col gap-4">
      <ListFacetGroup facet="state" counts={facets.lists.state} selected={filters.state ?? ''} onChange={onChange} />
      <RangeGroup
        legend="Quality"
        names={['quality_min', 'quality_max']}
        min={filters.quality_min}
        max={filters.quality_max}
        bounds={{ min: text(ranges.quality.min), max: text(ranges.quality.max) }}
        step="0.01"
        onChange={onChange}
      />
      {(['grade', 'source', 'task', 'campaign', 'vertical', 'topic'] as const).map((facet) => (
        <ListFacetGroup key={facet} facet={facet} counts={facets.lists[facet]} selected={filters[facet] ?? ''} onChange={onChange} />
      ))}
      {(ranges.price.min !== null || filters.price_min !== undefined || filters.price_max !== undefined) && (
        <RangeGroup
          legend="Unit price (USD)"
          names={['price_min', 'price_max']}
          min={filters.price_min}
          max={filters.price_max}
          bounds={{ min: usd(ranges.price.min), max: usd(ranges.price.max) }}
          step="0.0001"
          onChange={onChange}
        />
      )}
      {(ranges.validators.min !== null || filters.validators_min !== undefined || filters.validators_max !== undefined) && (
        <RangeGroup
          legend="Validators"
          names={['validators_min', 'validators_max']}
          min={filters.validators_min}
          max={filters.validators_max}
          bounds={{ min: text(ranges.validators.min), max: text(ranges.validators.max) }}
          step="1"
          onChange={onChange}
        />
      )}
      {(ranges.consensus.min !== null || filters.consensus_min !== undefined || filters.consensus_max !== undefined) && (
        <RangeGroup
          legend="Consensus"
          names={['consensus_min', 'consensus_max']}
          min={filters.consensus_min}
          max={filters.consensus_max}
          bounds={{ min: text(ranges.consensus.min), max: text(ranges.consensus.max) }}
          step="0.01"
          onChange={onChange}
        />
      )}
      <fieldset className="flex flex-col gap-1 text-sm">
        <legend className="mb-1 font-semibold">Created</legend>
        <DateField label="Created from" value={filters.created_from} onCommit={(d) => onChange({ created_from: d })} />
        <DateField label="Created to" value={filters.created_to} onCommit={(d) => onChange({ created_to: d })} />
      </fieldset>
      <fieldset className="flex flex-col gap-1 text-sm">
        <legend className="mb-1 font-semibold">Received here</legend>
        <DateField label="Received from" value={filters.received_from} onCommit={(d) => onChange({ received_from: d })} />
        <DateField label="Received to" value={filters.received_to} onCommit={(d) => onChange({ received_to: d })} />
      </fieldset>
    </div>
  );
});
