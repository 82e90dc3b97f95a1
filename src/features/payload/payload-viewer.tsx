import { useMemo, useState } from 'react';
import { Button } from '../../components/ui/button';
import { findImage } from './annotations';
import { AnnotatedImage } from './annotated-image';
import { JsonNode } from './json-tree';

const RAW_LIMIT = 200_000;

function rawText(value: unknown): string {
  try {
    const text = JSON.stringify(value, null, 2) ?? String(value);
    return text.length > RAW_LIMIT ? `${text.slice(0, RAW_LIMIT)}\n… (${(text.length - RAW_LIMIT).toLocaleString()} more characters)` : text;
  } catch {
    return 'This payload cannot be shown as JSON.';
  }
}

/**
 * Delivered content, rendered: an image with its annotations when the payload has one,
 * the fields as a collapsible tree, and the raw JSON. Never HTML.
 */
export function PayloadViewer({
  value,
  baseUrl,
  label = 'Delivered content',
  rootName = 'data',
  eagerImage = false,
  imageTiming,
}: {
  value: unknown;
  baseUrl: string;
  label?: string;
  rootName?: string;
  /** Load the image at once rather than when it scrolls into view (see AnnotatedImage). */
  eagerImage?: boolean;
  /** The image's Element Timing identifier, so its paint can be told apart (default "delivered-image"). */
  imageTiming?: string;
}) {
  const [raw, setRaw] = useState(false);
  const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  const image = useMemo(() => (record ? findImage(record) : null), [record]);
  const rawView = useMemo(() => (raw ? rawText(value) : ''), [raw, value]);
  return (
    <section aria-label={label} className="flex flex-col gap-3">
      <div className="flex gap-1" role="group" aria-label="Payload view">
        <Button size="sm" variant={raw ? 'ghost' : 'secondary'} aria-pressed={!raw} onClick={() => setRaw(false)}>
          Rendered
        </Button>
        <Button size="sm" variant={raw ? 'secondary' : 'ghost'} aria-pressed={raw} onClick={() => setRaw(true)}>
          Raw JSON
        </Button>
      </div>
      {raw ? (
        <pre className="max-h-[60vh] overflow-auto rounded bg-slate-50 p-3 font-mono text-xs whitespace-pre-wrap break-all dark:bg-slate-950">{rawView}</pre>
      ) : (
        <>
          {image && <AnnotatedImage image={image} baseUrl={baseUrl} eager={eagerImage} timing={imageTiming} />}
          <div className="font-mono text-xs leading-relaxed">
            <JsonNode name={rootName} value={value} depth={0} baseUrl={baseUrl} />
          </div>
        </>
      )}
    </section>
  );
}
