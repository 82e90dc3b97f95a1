import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { saveManifest } from './sinks';
import type { ExportPhase } from './use-export-run';

/** Shapes named in the dialog; the manifest and the file name up to 100, and count every one. */
const SHOWN = 10;
const count = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

/** A finished export: what was saved, what was left out and why (each bad geometry by name), and its manifest. */
export function ExportResult({ phase }: { phase: Extract<ExportPhase, { kind: 'saved' }> }) {
  const { summary, fileName, via, manifest } = phase;
  const bad = summary.badGeometry;
  const badTotal = bad ? bad.shapes + bad.images : 0;
  const [manifestState, setManifestState] = useState<'idle' | 'saved' | 'failed'>('idle');
  return (
    <>
      <p role="status">
        Saved {plural(summary.written, 'item')} as {fileName}
        {summary.leftOut > 0 ? `; ${count(summary.leftOut)} left out (no image annotations)` : ''}.
      </p>
      {bad && badTotal > 0 && (
        <div role="alert" className="rounded border border-amber-300 bg-amber-50 p-2 dark:border-amber-700 dark:bg-amber-950">
          <p>
            Left out for their geometry (not finite, negative, or past 2^53):{' '}
            {[bad.shapes > 0 && plural(bad.shapes, 'shape'), bad.images > 0 && plural(bad.images, 'image')].filter(Boolean).join(' and ')}. Their items&apos;
            other shapes are in the file; the manifest counts them all.
          </p>
          <ul aria-label="Left out for their geometry" className="mt-1 list-disc pl-5 break-words">
            {bad.named.slice(0, SHOWN).map((left, index) => (
              <li key={index}>
                Item {left.item_id}, {left.where}
                {left.label ? ` (${left.label})` : ''}: {left.problem}
              </li>
            ))}
            {badTotal > SHOWN && <li>and {count(badTotal - SHOWN)} more (named in the manifest and the file&apos;s left_out)</li>}
          </ul>
        </div>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <span>
          Manifest: {manifest.fileName}
          {via === 'download' ? ' (downloaded beside it)' : ''}
        </span>
        <Button
          onClick={() =>
            saveManifest(manifest.text, manifest.fileName).then(
              (saved) => saved && setManifestState('saved'),
              () => setManifestState('failed'),
            )
          }
        >
          {via === 'download' ? 'Download the manifest again' : 'Save the manifest'}
        </Button>
        {manifestState !== 'idle' && <span role="status">{manifestState === 'saved' ? 'Manifest saved.' : 'Could not save the manifest.'}</span>}
      </div>
    </>
  );
}
