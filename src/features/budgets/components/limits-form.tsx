import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { Total } from '../../../components/ui/total';
import { microsToDecimal } from '../../../lib/money';
import { PERIOD_LABELS, PERIOD_SPAN, PERIODS, type Limits, type Period } from '../../../domain/budgets/model';
import { parseMoneyText } from '../../../domain/budgets/money-text';

/** Limits to set (a number) or clear (undefined), by period; a period not named is unchanged. */
export type LimitChanges = Partial<Record<Period, number | undefined>>;

export interface LimitSpend {
  period: Period;
  spentMicros: number;
}

/**
 * One level's limits (the organization, or one subscription): each period's limit as exact
 * decimal text (blank: no limit), with what is spent against it. Saved together: the edited
 * fields only; a field that cannot be read is named and nothing is saved.
 */
export function LimitsForm({
  name,
  limits,
  spend,
  onSave,
}: {
  /** "Organization" or the subscription's name: the fields' labels start with it. */
  name: string;
  limits: Limits;
  spend: readonly LimitSpend[];
  /** The limits the user changed (undefined: no limit any more); the others are left as stored. */
  onSave: (changes: LimitChanges) => Promise<void>;
}) {
  const textOf = (l: Limits) => Object.fromEntries(PERIODS.map((p) => [p, l[p] === undefined ? '' : microsToDecimal(l[p])])) as Record<Period, string>;
  // `base`: the stored limits the fields last showed. A field whose text differs from it is an edit.
  const [base, setBase] = useState(() => textOf(limits));
  const [text, setText] = useState(base);
  const [errors, setErrors] = useState<Partial<Record<Period, string>>>({});
  const [status, setStatus] = useState<string | null>(null);
  // The stored limits changed (here or in another tab): fields not being edited follow; an edit
  // in progress is kept, and saving it changes only that limit, never the other tab's.
  // Compared by value: a subscription without limits is a new empty object on every render.
  const stored = textOf(limits);
  if (PERIODS.some((p) => stored[p] !== base[p])) {
    setBase(stored);
    setText(Object.fromEntries(PERIODS.map((p) => [p, text[p] === base[p] ? stored[p] : text[p]])) as Record<Period, string>);
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const changes: LimitChanges = {};
    const found: Partial<Record<Period, string>> = {};
    for (const period of PERIODS) {
      if (text[period] === base[period]) continue;
      if (text[period].trim() === '') {
        changes[period] = undefined;
        continue;
      }
      const parsed = parseMoneyText(text[period]);
      if ('error' in parsed) found[period] = parsed.error;
      else changes[period] = parsed.micros;
    }
    setErrors(found);
    if (Object.keys(found).length) {
      setStatus(null);
      return;
    }
    try {
      await onSave(changes);
      setStatus(`Saved ${name.toLowerCase() === 'organization' ? 'the organization’s' : `${name}’s`} limits.`);
    } catch (error) {
      setStatus(`Not saved: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-3" noValidate>
      <div className="grid gap-3 sm:grid-cols-3">
        {PERIODS.map((period) => {
          const limit = limits[period];
          const spent = spend.find((s) => s.period === period)?.spentMicros ?? 0;
          return (
            <TextField
              key={period}
              label={`${name} ${PERIOD_LABELS[period].toLowerCase()} limit (USD)`}
              inputMode="decimal"
              autoComplete="off"
              placeholder="no limit"
              value={text[period]}
              error={errors[period]}
              onChange={(event) => setText((t) => ({ ...t, [period]: event.target.value }))}
              hint={
                <>
                  Spent {PERIOD_SPAN[period]}:{' '}
                  <strong>
                    <Total micros={spent} />
                  </strong>
                  {limit !== undefined && (
                    <>
                      {' '}
                      of <Total micros={limit} />
                    </>
                  )}
                </>
              }
            />
          );
        })}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" variant="primary">
          Save {name === 'Organization' ? 'organization' : name} limits
        </Button>
        {status && (
          <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
            {status}
          </p>
        )}
      </div>
    </form>
  );
}
