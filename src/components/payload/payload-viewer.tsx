import { useMemo, useRef, useState } from 'react';
import { Button } from '../ui/button';
import { AnnotatedImage } from './annotated-image';
import { findImage } from '../../domain/payload';
import { JsonNode } from './json-tree';
import { detectTaskShapes, hasTaskShape } from '../../domain/payload';
import { TaskViews } from './task-views';
import { useViewerKeys } from './use-viewer-keys';
import { viewerAria } from './viewer-keymap';

const RAW_LIMIT = 200_000;

function rawText(value: unknown): string {
  try {
    const text = JSON.stringify(value, null, 2) ?? String(value);
    return text.length > RAW_LIMIT ? `${text.slice(0, RAW_LIMIT)}\n… (${(text.length - RAW_LIMIT).toLocaleString()} more characters)` : text;
  } catch {
    return 'This payload cannot be shown as JSON.';
  }
}

type View = 'rendered' | 'tree' | 'raw';

/**
 * Delivered content, rendered by what it looks like: an image with its annotations in the viewer,
 * spans, labels, dialogues, questions and answers, ratings and rankings (task-shapes.ts), and
 * everything as the collapsible tree; the tree alone and the raw JSON one key away. Never HTML.
 */
export function PayloadViewer({
  value,
  baseUrl,
  label = 'Delivered content',
  rootName = 'data',
  eagerImage = false,
  imageTiming,
  shortcuts = eagerImage,
  compact = false,
}: {
  value: unknown;
  baseUrl: string;
  label?: string;
  rootName?: string;
  /** Load the image at once rather than when it scrolls into view (see AnnotatedImage). */
  eagerImage?: boolean;
  /** The image's Element Timing identifier, so its paint can be told apart (default "delivered-image"). */
  imageTiming?: string;
  /**
   * Answer the viewer's keys (viewer-keymap.ts) while shown. By default the viewer that loads its
   * image eagerly does: the review's focused item (and the next one, hidden until it is focused).
   */
  shortcuts?: boolean;
  /** Short of room (the review's item card, fitted to the window): the tree starts closed below an image too. */
  compact?: boolean;
}) {
  const [view, setView] = useState<View>('rendered');
  const root = useRef<HTMLElement>(null);
  const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  const image = useMemo(() => (record ? findImage(record) : null), [record]);
  const shapes = useMemo(() => detectTaskShapes(value), [value]);
  const shaped = hasTaskShape(shapes);
  const rawView = useMemo(() => (view === 'raw' ? rawText(value) : ''), [view, value]);
  const toggle = (to: View) => setView((v) => (v === to ? 'rendered' : to));
  const keys = useMemo(
    () => ({ treeView: () => setView((v) => (v === 'tree' ? 'rendered' : 'tree')), rawView: () => setView((v) => (v === 'raw' ? 'rendered' : 'raw')) }),
    [],
  );
  useViewerKeys(keys, shortcuts, root);
  const tree = (collapsed: boolean) => (
    <div className="font-mono text-xs leading-relaxed">
      {/* Below rendered text, dialogue or ranking views the tree starts closed (it repeats them); below an image it stays open, as the fields beside the image (links, captions) are read there. */}
      <JsonNode name={rootName} value={value} depth={collapsed ? 2 : 0} baseUrl={baseUrl} />
    </div>
  );
  return (
    <section ref={root} aria-label={label} className="flex min-h-0 flex-col gap-3 lg:gap-2">
      <div className="flex gap-1" role="group" aria-label="Payload view">
        <Button size="sm" variant={view === 'rendered' ? 'secondary' : 'ghost'} aria-pressed={view === 'rendered'} onClick={() => setView('rendered')}>
          Rendered
        </Button>
        <Button
          size="sm"
          variant={view === 'tree' ? 'secondary' : 'ghost'}
          aria-pressed={view === 'tree'}
          onClick={() => toggle('tree')}
          aria-keyshortcuts={viewerAria('treeView')}
        >
          JSON tree
        </Button>
        <Button
          size="sm"
          variant={view === 'raw' ? 'secondary' : 'ghost'}
          aria-pressed={view === 'raw'}
          onClick={() => toggle('raw')}
          aria-keyshortcuts={viewerAria('rawView')}
        >
          Raw JSON
        </Button>
      </div>
      {view === 'raw' ? (
        <pre className="max-h-[60vh] overflow-auto rounded bg-slate-50 p-3 font-mono text-xs whitespace-pre-wrap break-all dark:bg-slate-950">{rawView}</pre>
      ) : view === 'tree' ? (
        tree(false)
      ) : (
        <>
          {image && <AnnotatedImage image={image} baseUrl={baseUrl} eager={eagerImage} timing={imageTiming} keyboard={shortcuts} />}
          {shaped && <TaskViews shapes={shapes} />}
          {tree(shaped || (compact && image !== null))}
        </>
      )}
    </section>
  );
}
