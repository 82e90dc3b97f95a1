import { cx } from '../../lib/cx';

/**
 * Grades and quality scores in distinct colours, each with its text (colour is never the only
 * sign): hues far apart (green, blue, amber, red), dark text on a light tint and the reverse in
 * dark mode, all above 4.5:1. The score thresholds are the service's grade boundaries.
 */
const TONES = {
  A: 'bg-emerald-100 text-emerald-900 ring-emerald-600/40 dark:bg-emerald-900 dark:text-emerald-50',
  B: 'bg-sky-100 text-sky-900 ring-sky-600/40 dark:bg-sky-900 dark:text-sky-50',
  C: 'bg-amber-100 text-amber-900 ring-amber-600/40 dark:bg-amber-900 dark:text-amber-50',
  D: 'bg-rose-100 text-rose-900 ring-rose-600/40 dark:bg-rose-900 dark:text-rose-50',
  other: 'bg-slate-100 text-slate-900 ring-slate-500/40 dark:bg-slate-800 dark:text-slate-50',
} as const;

type Tone = keyof typeof TONES;

export function gradeTone(grade: string): Tone {
  const letter = grade.trim().charAt(0).toUpperCase();
  if (letter === 'A' || letter === 'B' || letter === 'C' || letter === 'D') return letter;
  // E and F are below D.
  return letter === 'E' || letter === 'F' ? 'D' : 'other';
}

export function scoreTone(score: number): Tone {
  if (!Number.isFinite(score)) return 'other';
  return score >= 0.9 ? 'A' : score >= 0.8 ? 'B' : score >= 0.7 ? 'C' : 'D';
}

const badge = 'inline-flex items-center rounded px-1.5 py-0.5 text-xs font-semibold ring-1 ring-inset';

/** A quality grade ("A"…"D"; anything else shows neutral), cut to a few characters. */
export function GradeBadge({ grade }: { grade: string }) {
  const shown = grade.length > 8 ? `${grade.slice(0, 8)}…` : grade;
  return (
    <span className={cx(badge, TONES[gradeTone(grade)])} data-tone={gradeTone(grade)}>
      grade {shown}
    </span>
  );
}

/** A score from 0 to 1, coloured by the grade it would earn. */
export function ScoreBadge({ score, label = 'quality' }: { score: number; label?: string }) {
  return (
    <span className={cx(badge, 'tabular-nums', TONES[scoreTone(score)])} data-tone={scoreTone(score)}>
      {label} {Number.isFinite(score) ? String(Math.round(score * 1000) / 1000) : '—'}
    </span>
  );
}
