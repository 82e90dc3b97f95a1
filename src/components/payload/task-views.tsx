import { useState, type ReactNode } from 'react';
import { Button } from '../ui/button';
import { GradeBadge, ScoreBadge } from './grade-badge';
import { labelColor } from './label-colors';
import type { Chips, Dialogue, QaPair, Ranking, Rating, SpanText, TaskShapes } from '../../domain/payload';

/** Long text shows its start, and more on request: a megabyte of text costs nothing until asked for. */
const TEXT_SLICE = 5_000;

function LongText({ text }: { text: string }) {
  const [shown, setShown] = useState(TEXT_SLICE);
  return (
    <>
      {text.length > shown ? `${text.slice(0, shown)}…` : text}
      {text.length > shown && (
        <Button size="sm" variant="ghost" className="ml-1" onClick={() => setShown((n) => n * 4)}>
          Show more ({(text.length - shown).toLocaleString()} more characters)
        </Button>
      )}
    </>
  );
}

// A caption, not a heading: the focused item's one heading is its title (the review finds it by role).
const Caption = ({ children }: { children: string }) => (
  <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400">{children}</p>
);

/** Text with its spans highlighted, each followed by its label; all as text nodes. */
function SpanView({ value }: { value: SpanText }) {
  const parts: ReactNode[] = [];
  let at = 0;
  value.spans.forEach((span, i) => {
    if (span.start > at) parts.push(value.text.slice(at, span.start));
    const color = labelColor(span.label || undefined);
    parts.push(
      <mark key={i} className="rounded px-0.5 text-inherit" style={{ background: `${color}33`, boxShadow: `inset 0 -2px 0 ${color}` }}>
        {value.text.slice(span.start, span.end)}
        {span.label && (
          <span className="ml-1 rounded px-1 align-middle text-[0.65rem] font-semibold text-slate-900 dark:text-slate-100" style={{ background: `${color}55` }}>
            {span.label}
          </span>
        )}
      </mark>,
    );
    at = span.end;
  });
  const rest = value.text.slice(at);
  return (
    <section aria-label={`Text with ${value.spans.length} labelled span${value.spans.length === 1 ? '' : 's'}`} className="flex flex-col gap-1">
      <Caption>{`Spans (${value.field})`}</Caption>
      <p className="text-sm leading-7 whitespace-pre-wrap [overflow-wrap:anywhere]">
        {parts}
        {rest && <LongText text={rest} />}
      </p>
      {value.ignored > 0 && (
        <p className="text-xs text-amber-800 dark:text-amber-300">
          {value.ignored} span{value.ignored === 1 ? '' : 's'} not shown: empty, outside the text or overlapping another.
        </p>
      )}
    </section>
  );
}

function ChipList({ chips }: { chips: Chips[] }) {
  return (
    <section aria-label="Labels" className="flex flex-col gap-1">
      <Caption>Labels</Caption>
      <dl className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        {chips.map((c) => (
          <div key={c.field} className="flex flex-wrap items-center gap-1">
            <dt className="text-slate-600 dark:text-slate-400">{c.field}</dt>
            {c.values.map((v, i) => (
              <dd key={i} className="rounded-full border border-slate-300 bg-slate-50 px-2 py-0.5 text-xs font-medium dark:border-slate-600 dark:bg-slate-800">
                {v}
              </dd>
            ))}
          </div>
        ))}
      </dl>
    </section>
  );
}

function Transcript({ dialogue }: { dialogue: Dialogue }) {
  const first = dialogue.turns[0]?.speaker;
  return (
    <section aria-label="Dialogue" className="flex flex-col gap-1">
      <Caption>{`Dialogue (${dialogue.turns.length} turn${dialogue.turns.length === 1 ? '' : 's'})`}</Caption>
      <ol className="flex flex-col gap-1.5 text-sm">
        {dialogue.turns.map((turn, i) => (
          <li
            key={i}
            className={`max-w-[85%] rounded-lg px-2.5 py-1.5 lg:py-1 ${turn.speaker === first ? 'self-start bg-slate-100 dark:bg-slate-800' : 'self-end bg-sky-50 dark:bg-sky-950'}`}
          >
            {/* Wide screens: the speaker leads the line, so a short turn takes one line, not two. */}
            <span className="block text-xs font-semibold text-slate-700 lg:mr-2 lg:inline dark:text-slate-300">{turn.speaker}</span>
            <span className="whitespace-pre-wrap [overflow-wrap:anywhere]">
              <LongText text={turn.text} />
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function QaList({ pairs }: { pairs: QaPair[] }) {
  return (
    <section aria-label="Questions and answers" className="flex flex-col gap-1">
      <Caption>Questions and answers</Caption>
      <dl className="flex flex-col gap-2 text-sm">
        {pairs.map((p, i) => (
          <div key={i} className="flex flex-col gap-0.5">
            <dt className="font-medium whitespace-pre-wrap [overflow-wrap:anywhere]">
              Q: <LongText text={p.question} />
            </dt>
            <dd className="whitespace-pre-wrap [overflow-wrap:anywhere]">
              A: <LongText text={p.answer} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function RatingView({ rating }: { rating: Rating }) {
  const stars = rating.max === 5 ? '★'.repeat(rating.value) + '☆'.repeat(5 - rating.value) : null;
  return (
    <span className="inline-flex items-center gap-1 text-sm">
      <span className="text-slate-600 dark:text-slate-400">{rating.field}</span>
      {stars && (
        <span aria-hidden="true" className="text-amber-600 dark:text-amber-400">
          {stars}
        </span>
      )}
      <span className="font-medium tabular-nums">
        {rating.value} / {rating.max}
      </span>
    </span>
  );
}

function RankingView({ ranking }: { ranking: Ranking }) {
  return (
    <section aria-label="Ranking" className="flex flex-col gap-1">
      <Caption>{`Ranking (${ranking.field}), best first`}</Caption>
      <ol className="flex flex-col gap-1 text-sm">
        {ranking.entries.map((e, i) => (
          <li key={i} className="flex gap-2">
            <span className="min-w-[2.5rem] font-semibold tabular-nums">#{e.rank}</span>
            <span className="whitespace-pre-wrap [overflow-wrap:anywhere]">
              <LongText text={e.text} />
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Every shape found in the content, each as it is read. */
export function TaskViews({ shapes }: { shapes: TaskShapes }) {
  const scalars = shapes.ratings.length + shapes.grades.length + shapes.scores.length > 0;
  return (
    <div className="flex flex-col gap-3 lg:gap-2">
      {scalars && (
        <div className="flex flex-wrap items-center gap-3" aria-label="Ratings and scores" role="group">
          {shapes.grades.map((g) => (
            <span key={g.field} className="inline-flex items-center gap-1 text-sm">
              <span className="text-slate-600 dark:text-slate-400">{g.field}</span>
              <GradeBadge grade={g.grade} />
            </span>
          ))}
          {shapes.scores.map((s) => (
            <ScoreBadge key={s.field} score={s.value} label={s.field} />
          ))}
          {shapes.ratings.map((r) => (
            <RatingView key={r.field} rating={r} />
          ))}
        </div>
      )}
      {shapes.chips.length > 0 && <ChipList chips={shapes.chips} />}
      {shapes.spans && <SpanView value={shapes.spans} />}
      {shapes.text && (
        <section aria-label="Text" className="flex flex-col gap-1">
          <Caption>{shapes.text.field}</Caption>
          <p className="text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">
            <LongText text={shapes.text.text} />
          </p>
        </section>
      )}
      {shapes.dialogue && <Transcript dialogue={shapes.dialogue} />}
      {shapes.qa.length > 0 && <QaList pairs={shapes.qa} />}
      {shapes.ranking && <RankingView ranking={shapes.ranking} />}
    </div>
  );
}
