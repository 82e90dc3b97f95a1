import { useState } from 'react';
import { Button } from '../ui/button';
import { isOtherOrigin, safeLinkUrl } from '../../domain/payload';

/**
 * A collapsible tree of untrusted JSON. Everything is text (React escapes it); nothing is
 * parsed as HTML. Children render only when opened, long strings and arrays in slices, so
 * deep or huge payloads stay responsive.
 */
const STRING_SLICE = 2_000;
const ARRAY_SLICE = 100;
const OPEN_DEPTH = 2;

/**
 * Where a link to another origin goes, as the browser will read it: text such as
 * "https://dds.example.com.evil.example/" or "https://dds.example.com@evil.example/" reads like
 * one host and goes to another, so the host is written out (punycode for IDNs) in the link itself.
 */
function destinationOf(link: string, baseUrl: string): string | null {
  if (!isOtherOrigin(link, baseUrl)) return null;
  const host = new URL(link).host;
  return host.length > 80 ? `${host.slice(0, 80)}…` : host;
}

function StringValue({ value, baseUrl }: { value: string; baseUrl: string }) {
  const [shown, setShown] = useState(STRING_SLICE);
  const link = value.length < 2_048 ? safeLinkUrl(value, baseUrl) : null;
  const destination = link ? destinationOf(link, baseUrl) : null;
  const text = value.length > shown ? value.slice(0, shown) : value;
  return (
    <span className="break-words whitespace-pre-wrap text-emerald-800 dark:text-emerald-300">
      {link ? (
        <a href={link} target="_blank" rel="noopener noreferrer nofollow" referrerPolicy="no-referrer" className="underline">
          {text}
          {destination && ' '}
          {destination && (
            <span className="inline-block rounded bg-amber-100 px-1 text-amber-900 no-underline dark:bg-amber-900 dark:text-amber-100">
              (opens {destination})
            </span>
          )}
        </a>
      ) : (
        `"${text}${value.length > shown ? '…' : ''}"`
      )}
      {value.length > shown && (
        <Button size="sm" variant="ghost" onClick={() => setShown((n) => n * 4)} className="ml-1">
          Show more ({(value.length - shown).toLocaleString()} more characters)
        </Button>
      )}
    </span>
  );
}

function Primitive({ value, baseUrl }: { value: unknown; baseUrl: string }) {
  if (typeof value === 'string') return <StringValue value={value} baseUrl={baseUrl} />;
  if (typeof value === 'number') return <span className="text-blue-700 dark:text-blue-300">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="text-purple-700 dark:text-purple-300">{String(value)}</span>;
  if (value === null) return <span className="text-slate-500">null</span>;
  return <span className="text-slate-500">{String(value)}</span>;
}

function Branch({ name, value, depth, baseUrl }: { name: string; value: object; depth: number; baseUrl: string }) {
  const [open, setOpen] = useState(depth < OPEN_DEPTH);
  const [limit, setLimit] = useState(ARRAY_SLICE);
  const isArray = Array.isArray(value);
  const entries: [string, unknown][] = isArray ? (value as unknown[]).slice(0, limit).map((v, i) => [String(i), v]) : Object.entries(value).slice(0, limit);
  const size = isArray ? (value as unknown[]).length : Object.keys(value).length;
  return (
    <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer select-none">
        <span className="font-medium text-slate-800 dark:text-slate-200">{name}</span>{' '}
        <span className="text-xs text-slate-500">{isArray ? `[${size.toLocaleString()}]` : `{${size.toLocaleString()}}`}</span>
      </summary>
      {open && (
        <ul className="ml-4 border-l border-slate-200 pl-2 dark:border-slate-700">
          {entries.map(([key, child]) => (
            <li key={key}>
              <JsonNode name={key} value={child} depth={depth + 1} baseUrl={baseUrl} />
            </li>
          ))}
          {size > limit && (
            <li>
              <Button size="sm" variant="ghost" onClick={() => setLimit((n) => n + ARRAY_SLICE * 10)}>
                Show more ({(size - limit).toLocaleString()} more)
              </Button>
            </li>
          )}
        </ul>
      )}
    </details>
  );
}

export function JsonNode({ name, value, depth, baseUrl }: { name: string; value: unknown; depth: number; baseUrl: string }) {
  if (typeof value === 'object' && value !== null) return <Branch name={name} value={value} depth={depth} baseUrl={baseUrl} />;
  return (
    <div>
      <span className="font-medium text-slate-800 dark:text-slate-200">{name}</span>: <Primitive value={value} baseUrl={baseUrl} />
    </div>
  );
}
