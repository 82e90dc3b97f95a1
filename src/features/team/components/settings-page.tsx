import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { SETTINGS_LIMITS, type SignedInMember, type TeamSettings } from '../../../api/contract/hub';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { inputClass } from '../../../components/ui/field';
import { PageHeader, Panel } from '../../../components/ui/panel';
import { cellClass, rowClass, SimpleTable } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { cx } from '../../../lib/cx';
import { hubApi } from '../api';
import { HUB_QUERY_KEY, settingsQuery } from '../queries';

type Draft = Pick<TeamSettings, 'reason_codes'>;

/** Team settings every member sees: the dispute reason codes (the team's lots are on the Lots page). Admins edit them; everyone else reads. */
export function SettingsPage({ me }: { me: SignedInMember }) {
  const { data } = useSuspenseQuery(settingsQuery());
  return (
    <>
      <PageHeader
        title="Team settings"
        description={
          me.role === 'admin'
            ? 'The dispute reason codes every member of the team sees. Sampling lots are shared on the Lots page.'
            : 'The dispute reason codes every member of the team sees. Only an admin changes them. Sampling lots are shared on the Lots page.'
        }
      />
      {data.updated_at && (
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
          Last saved <Time value={data.updated_at} />.
        </p>
      )}
      {/* The draft starts from what is stored when the page opens; a save replaces the whole document. */}
      {me.role === 'admin' ? <SettingsEditor saved={data} /> : <SettingsView settings={data} />}
    </>
  );
}

function SettingsView({ settings }: { settings: Draft }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <SimpleTable
        caption="Reason codes"
        showCaption
        headers={['Code', 'Label']}
        empty="No shared reason codes: each console uses its own."
        isEmpty={settings.reason_codes.length === 0}
      >
        {settings.reason_codes.map((r) => (
          <tr key={r.code} className={rowClass}>
            <td className={`${cellClass} font-mono text-xs`}>{r.code}</td>
            <td className={cellClass}>{r.label}</td>
          </tr>
        ))}
      </SimpleTable>
    </div>
  );
}

/** Two text columns of rows, each row with its own labelled inputs, order buttons and Remove. */
function PairList({
  title,
  names,
  rows,
  onChange,
  max,
  addLabel,
}: {
  title: string;
  names: [string, string];
  rows: [string, string][];
  onChange: (rows: [string, string][]) => void;
  max: number;
  addLabel: string;
}) {
  const update = (index: number, part: 0 | 1, value: string) =>
    onChange(rows.map((row, i) => (i === index ? (part === 0 ? [value, row[1]] : [row[0], value]) : row)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...rows];
    [next[index], next[index + by]] = [next[index + by]!, next[index]!];
    onChange(next);
  };
  return (
    <Panel aria-label={title}>
      <h2 className="text-base font-semibold">{title}</h2>
      <ol className="mt-2 flex flex-col gap-2">
        {rows.map(([a, b], index) => (
          // Narrow: the two fields share a row and the buttons take the next; wide: one row.
          <li key={index} className="grid grid-cols-2 items-center gap-2 sm:flex">
            <input
              aria-label={`${names[0]} ${index + 1}`}
              className={cx(inputClass, 'min-w-0 font-mono sm:w-40')}
              value={a}
              onChange={(e) => update(index, 0, e.target.value)}
            />
            <input
              aria-label={`${names[1]} ${index + 1}`}
              className={cx(inputClass, 'min-w-0 sm:flex-1')}
              value={b}
              onChange={(e) => update(index, 1, e.target.value)}
            />
            <span className="col-span-2 flex justify-end gap-1 sm:contents">
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Move ${names[0].toLowerCase()} ${index + 1} up`}
                disabled={index === 0}
                onClick={() => move(index, -1)}
              >
                ↑
              </Button>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Move ${names[0].toLowerCase()} ${index + 1} down`}
                disabled={index === rows.length - 1}
                onClick={() => move(index, 1)}
              >
                ↓
              </Button>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Remove ${names[0].toLowerCase()} ${index + 1}`}
                onClick={() => onChange(rows.filter((_, i) => i !== index))}
              >
                Remove
              </Button>
            </span>
          </li>
        ))}
      </ol>
      <Button size="sm" className="mt-2" disabled={rows.length >= max} onClick={() => onChange([...rows, ['', '']])}>
        {addLabel}
      </Button>
    </Panel>
  );
}

function SettingsEditor({ saved }: { saved: Draft }) {
  const queryClient = useQueryClient();
  const [codes, setCodes] = useState<[string, string][]>(() => saved.reason_codes.map((r) => [r.code, r.label]));
  const [done, setDone] = useState(false);
  const save = useMutation({
    mutationFn: hubApi.saveSettings,
    onSuccess: (answer) => {
      queryClient.setQueryData([...HUB_QUERY_KEY, 'settings'], answer);
      setDone(true);
    },
  });
  const change = (apply: () => void) => {
    setDone(false);
    apply();
  };
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({
          reason_codes: codes.map(([code, label]) => ({ code: code.trim(), label: label.trim() })),
        });
      }}
      className="flex flex-col gap-4"
    >
      <div className="grid gap-4 lg:grid-cols-2">
        <PairList
          title="Reason codes"
          names={['Code', 'Label']}
          rows={codes}
          onChange={(rows) => change(() => setCodes(rows))}
          max={SETTINGS_LIMITS.reasonCodes}
          addLabel="Add reason code"
        />
      </div>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Codes are snake_case (lower-case letters, digits, _), at most {SETTINGS_LIMITS.codeChars} characters; up to {SETTINGS_LIMITS.reasonCodes} codes. The
        order here is the order every dispute dialog shows.
      </p>
      {save.error && <ErrorPanel error={save.error} />}
      <div className="flex items-center gap-3">
        <Button type="submit" variant="primary" disabled={save.isPending}>
          Save settings
        </Button>
        {done && (
          <span role="status" className="text-sm text-green-800 dark:text-green-200">
            Saved: every member sees them now.
          </span>
        )}
      </div>
    </form>
  );
}
