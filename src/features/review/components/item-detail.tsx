import { memo, startTransition, useEffect, useLayoutEffect, useRef, useState, type FormEvent, type ReactNode, type Ref } from 'react';
import { Button } from '../../../components/ui/button';
import { cx } from '../../../lib/cx';
import { Badge } from '../../../components/ui/panel';
import { formatMicros } from '../../../lib/money';
import { formatReason, NO_CHOICE, ReasonPicker, type ReasonChoice, type ReasonCode } from '../../dispute-reasons';
import type { OutboxEntry } from '../../../domain/outbox/model';
import { teamVotesText } from '../../../domain/outbox/team-votes';
import { isTeammates } from '../../../domain/outbox/transitions';
import { GradeBadge, PayloadViewer, ScoreBadge, useImagePreload } from '../../../components/payload';
import { contentInMemory, readContentAgain, useItemContent } from '../content-cache';
import { metaText, STATE_LABELS, type DisplayState, type ReviewItem } from '../model';
import { useNames } from '../../../data';
import { heldReason } from '../../budgets';
import { cut, LongText, SHOWN_CHARACTERS } from '../../../components/ui/long-text';
import { ariaKeys } from '../keymap';
import { afterPaint } from '../../../lib/after-paint';

/**
 * An item's content box: one at a time in the flow on narrow screens; on wide ones all share the
 * card's last row, each its own layer (`will-change: opacity`) with the card's background. Moving on
 * then changes two layers' opacity and paints nothing of the content: Chromium records a plain
 * transparent box's content as invisible and records it again, whole, when it turns opaque (~110
 * display items, 0.5 ms of each keypress's paint, traced). The opaque layer also spares the display
 * compositor's software draw the card beneath it; a hidden layer (opacity 0) is neither rastered
 * nor drawn.
 */
const CONTENT =
  'flex flex-col lg:absolute lg:inset-0 lg:min-h-0 lg:overflow-y-auto lg:bg-white lg:will-change-[opacity] lg:[--image-max-h:none] lg:dark:bg-slate-900';

/**
 * The items beside the focused one: transparent rather than `visibility: hidden`, so they are
 * painted (not shown) before their keypress (see CONTENT). Hidden, an SVG image was first painted
 * by the keypress and painted again, whole, a frame later. aria-hidden and inert keep them from
 * assistive technology, focus, the pointer and selection, as hidden ones were (inert from the frame
 * after a keypress: see ItemStack; until then the focused item lies above them).
 */
const INVISIBLE = { opacity: 0 } as const;

const NONE: readonly ReviewItem[] = [];

const TONE: Record<DisplayState, 'neutral' | 'good' | 'bad' | 'warn'> = {
  new: 'neutral',
  adopted: 'good',
  disputed: 'bad',
  waiting: 'warn',
  held: 'warn',
  'held-team': 'warn',
  accepted: 'neutral',
  failed: 'bad',
};

/** Grade and score in their colours (each with its text), when the item carries them. */
function QualityBadges({ item }: { item: ReviewItem }) {
  if (!item.grade && (item.score === null || item.score === undefined)) return null;
  return (
    <>
      {item.grade ? <GradeBadge grade={item.grade} /> : null}
      {item.score !== null && item.score !== undefined ? <ScoreBadge score={item.score} /> : null}
    </>
  );
}

/** The delivered content of one item, with its metadata. Memoised: it re-renders only for its own item. */
export const ItemContent = memo(function ItemContent({ item, baseUrl }: { item: ReviewItem; baseUrl: string }) {
  const content = useItemContent(item);
  const names = useNames();
  return (
    <div className="flex min-h-0 flex-col gap-3 lg:gap-2">
      {/* Wide screens: the fields run on as a line of pairs, so they take two lines rather than three. */}
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm sm:grid-cols-[auto_1fr_auto_1fr] lg:flex lg:flex-wrap lg:gap-x-5 lg:gap-y-0.5">
        {item.meta().map((m) => {
          const shown = metaText(m, names);
          return (
            <div key={m.label} className="contents lg:flex lg:gap-2">
              <dt className="text-slate-600 dark:text-slate-400">{m.label}</dt>
              <dd className="break-all" title={shown.title}>
                <LongText text={shown.text} />
              </dd>
            </div>
          );
        })}
      </dl>
      {content.status === 'ready' ? (
        <PayloadViewer
          value={content.content}
          baseUrl={baseUrl}
          rootName={item.kind === 'live' ? 'data' : 'payload'}
          eagerImage
          compact
          imageTiming={`delivered-image ${item.key}`}
        />
      ) : content.status === 'loading' ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">Reading the content from this browser’s storage…</p>
      ) : content.status === 'failed' ? (
        <div role="alert" className="flex flex-wrap items-center gap-2 text-sm text-red-800 dark:text-red-200">
          <span>Could not read this item’s content from this browser’s storage ({content.why}).</span>
          <Button size="sm" onClick={() => readContentAgain(item)}>
            Try again
          </Button>
        </div>
      ) : (
        <p role="alert" className="text-sm text-red-800 dark:text-red-200">
          This item’s content is no longer in this browser’s storage (its local data was deleted).
        </p>
      )}
    </div>
  );
});

/**
 * The focused live item's dispute: a reason code by number (1–9, the focus starts on the codes),
 * optional text, Enter disputes, Esc cancels. The reason is sent code first (formatReason).
 */
function DisputeReason({ reasons, onConfirm, onCancel }: { reasons: readonly ReasonCode[]; onConfirm: (reason: string) => void; onCancel: () => void }) {
  const [choice, setChoice] = useState<ReasonChoice>(NO_CHOICE);
  // The picker holds the focus, and gives it up before it leaves the page, whatever removes it:
  // removing a focused element made Chromium lay the half-changed page out inside that commit (1–4
  // ms, traced). A dispute's Enter only hides it with the move on (giving the focus up in the keydown
  // cost the keypress ~0.3 ms: a style update and the focus events, traced), and the render after
  // that paint removes it, its cleanup first. Keys pressed in between reach the hidden picker's
  // field: the picker leaves them to the page (ReasonPicker), the page's keys take them
  // (typedInField), and a submit from it (a second Enter) disputes nothing.
  const form = useRef<HTMLFormElement>(null);
  const release = () => {
    const focused = document.activeElement;
    if (focused instanceof HTMLElement && form.current?.contains(focused)) focused.blur();
  };
  // A layout effect's cleanup runs before React takes the picker's elements out of the page.
  useLayoutEffect(() => release, []);
  const confirm = () => {
    if (form.current?.closest('[hidden]')) return;
    onConfirm(formatReason(choice.code, choice.text));
  };
  const cancel = () => {
    release();
    onCancel();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm();
  };
  return (
    <form
      ref={form}
      onSubmit={submit}
      aria-label="Dispute reason"
      className="flex flex-col gap-2 rounded-md border border-red-200 bg-red-50 p-2 dark:border-red-900 dark:bg-red-950"
    >
      <ReasonPicker reasons={reasons} value={choice} onChange={setChoice} onSubmit={confirm} onCancel={cancel} autoFocus />
      <p className="text-xs text-slate-700 dark:text-slate-300">Enter disputes, Esc cancels.</p>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="danger">
          Confirm dispute
        </Button>
        <Button onClick={cancel}>Cancel</Button>
      </div>
    </form>
  );
}

export interface ItemDetailProps {
  item: ReviewItem;
  /** The items moving on would focus, in order: rendered hidden beside the focused one, so moving to them paints at once. */
  ahead?: readonly ReviewItem[];
  /** The items after those ahead: their images are fetched when the ones ahead are rendered, as they are rendered next. */
  further?: readonly ReviewItem[];
  state: DisplayState;
  entry: OutboxEntry | undefined;
  baseUrl: string;
  /** The key of the item whose dispute reason picker is open (shown only while that item is). */
  disputeFor: string | null;
  /** The organization's reason codes, in the dialog's order. */
  reasons: readonly ReasonCode[];
  onAdopt: () => void;
  onDispute: () => void;
  onDisputeConfirm: (reason: string) => void;
  onDisputeCancel: () => void;
  /** What the last decision did, with its Undo. */
  lastAction?: ReactNode;
  /** Why this member may not decide (a team hub's viewer): Adopt and Dispute are disabled, and it is shown. */
  readOnly?: string | null;
  /** What the item's subscription reads as (its limit is named by it when a budget holds the item). */
  subscriptionName?: string;
  /** The card's element (the workspace scrolls it into view after a decision on narrow screens). */
  sectionRef?: Ref<HTMLElement>;
}

/**
 * The focused item's content, with items beside it rendered hidden: the next ones (so moving on
 * paints at once, its image already fitted and painted) and the ones just left (so a keypress's
 * paint waits for no removal). The hidden set is replaced only when the next item is not in it,
 * after the keypress has painted and as a transition a new keypress interrupts; it then takes the
 * next few at once, so most keypresses are followed by no render of hidden items at all (each such
 * render is a frame that a fast run of keys would otherwise wait behind). Memoised: only this
 * stack renders then, not the workspace.
 */
const ItemStack = memo(function ItemStack({
  item,
  ahead,
  further,
  baseUrl,
}: {
  item: ReviewItem;
  ahead: readonly ReviewItem[];
  further: readonly ReviewItem[];
  baseUrl: string;
}) {
  // The first render (a page just pulled) shows the focused item alone: the ones ahead follow its paint.
  const [kept, setKept] = useState<readonly ReviewItem[]>(() => [item]);
  // The one item not inert: the focused one, from the frame after the keypress that focused it.
  // `inert` is inherited, so flipping it restyles both items' whole subtrees: ~120 elements, 2.5 ms
  // of the keypress's frame, where the rest of it restyles 7 (bench:ui, traced). The keypress makes
  // the item opaque and lays it above the others (z-index), so the pointer reaches it at once, and
  // aria-hidden moves with it (the viewer's keys follow aria-hidden for that frame).
  const [reachable, setReachable] = useState(item.key);
  const next = ahead[0];
  const stale = next !== undefined && !kept.some((k) => k.key === next.key);
  const unreachable = reachable !== item.key;
  const preload = useImagePreload(baseUrl);
  useEffect(() => {
    if (!stale && !unreachable) return;
    let cancelled = false;
    afterPaint(() => {
      if (cancelled) return;
      if (stale) {
        startTransition(() => setKept([item, ...ahead]));
        // The next set's images, so they are complete when it is rendered (image-preload.ts).
        preload(further.map(contentInMemory));
      }
      setReachable(item.key);
    });
    return () => {
      cancelled = true;
    };
  }, [stale, unreachable, item, ahead, further, preload]);
  // In a fixed order (the kept ones, then the focused one if it is not among them), so moving on
  // moves no element. Each is rendered from its current object (a decision replaces an item's).
  const current = new Map([item, ...ahead].map((i) => [i.key, i]));
  const shown = kept.some((k) => k.key === item.key) ? kept : [...kept, item];
  return shown.map((entry) => {
    const shownItem = current.get(entry.key) ?? entry;
    return shownItem.key === item.key ? (
      <div key={shownItem.key} data-item-content inert={shownItem.key !== reachable} className={cx(CONTENT, 'lg:z-[1]')}>
        <ItemContent item={shownItem} baseUrl={baseUrl} />
      </div>
    ) : (
      <div key={shownItem.key} inert={shownItem.key !== reachable} aria-hidden="true" className={cx(CONTENT, 'max-lg:hidden')} style={INVISIBLE}>
        <ItemContent item={shownItem} baseUrl={baseUrl} />
      </div>
    );
  });
});

/** The focused item: its state, its actions, and its content. */
export function ItemDetail({
  item,
  ahead = NONE,
  further = NONE,
  state,
  entry,
  baseUrl,
  disputeFor,
  reasons,
  onAdopt,
  onDispute,
  onDisputeConfirm,
  onDisputeCancel,
  lastAction,
  readOnly,
  subscriptionName,
  sectionRef,
}: ItemDetailProps) {
  const decided = state !== 'new' || !!readOnly;
  const readOnlyId = `read-only-${item.key}`;
  const priceId = `price-${item.key}`;
  // Which item's whole title is shown: another item starts cut again, and so does this one when it
  // comes back (forgotten as soon as another is shown; a render only then, not at each keypress).
  const [wholeTitle, setWholeTitle] = useState<string | null>(null);
  if (wholeTitle !== null && wholeTitle !== item.key) setWholeTitle(null);
  // Whether the title, one line on wide screens, is cut there: it then gets its "Show all" too (a
  // hover alone reaches no keyboard or touch user). Told by an observer, after the layout of the
  // frame that shows the title, so it asks for no layout of its own; a render only when it changes.
  // A new item keeps the last item's answer until its own is told (a title of one feed is mostly as
  // long as the one before, so its toggle neither flickers out nor in).
  const titleRef = useRef<HTMLHeadingElement>(null);
  const [titleCut, setTitleCut] = useState(false);
  const whole = wholeTitle === item.key;
  useEffect(() => {
    const title = titleRef.current;
    // Not while it is shown whole: it is not cut then, and the answer would take away the "Show less"
    // toggle that has the keyboard's focus, a frame before cutting the title made it come back.
    if (whole || !title || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setTitleCut(title.scrollWidth > title.clientWidth + 1));
    observer.observe(title);
    return () => observer.disconnect();
  }, [item.key, whole]);
  const longTitle = item.title.length > SHOWN_CHARACTERS;
  return (
    <section
      ref={sectionRef}
      aria-label="Focused item"
      // Wide screens: a grid, so the actions sit beside the title (a row of their own cost the image
      // its height), what follows spans both columns, and the content fills the last row.
      className="flex scroll-mt-2 flex-col gap-2 rounded-lg [contain:layout_paint] border border-slate-200 bg-white p-3 lg:grid lg:min-h-0 lg:flex-1 lg:grid-cols-[minmax(min(100%,16rem),1fr)_auto] lg:grid-rows-[auto_auto_auto_minmax(0,1fr)] lg:gap-x-4 lg:gap-y-0 lg:[&>:nth-child(-n+2)]:self-center lg:[&>:nth-child(n+3)]:col-span-2 lg:[&>:nth-child(n+3)]:mt-2 dark:border-slate-700 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center gap-2">
        {/* Narrow screens: the whole ID, broken anywhere rather than cut. Wide screens: one line of its
            own, cut at its end (whole on hover, and with "Show all" when cut), so the row keeps one height from
            item to item and the image below keeps its size. One heading per item, so Element Timing
            reports each item's first paint (named for the item: the entry may outlive the element). */}
        <h2
          key={item.key}
          ref={titleRef}
          elementtiming={`review-item ${item.key}`}
          title={titleCut && !whole ? item.title : undefined}
          className={cx('min-w-0 text-base font-semibold [overflow-wrap:anywhere] lg:basis-full', !whole && 'lg:truncate')}
        >
          {whole ? item.title : cut(item.title)}
        </h2>
        {(longTitle || titleCut || whole) && (
          // On wide screens no taller than the badges beside it, so it adds no height to the header.
          <Button
            size="sm"
            variant="ghost"
            className="lg:py-0 lg:text-xs lg:leading-4"
            aria-expanded={whole}
            onClick={() => setWholeTitle(whole ? null : item.key)}
          >
            {whole ? 'Show less of the title' : 'Show all of the title'}
          </Button>
        )}
        <Badge tone={TONE[state]}>{STATE_LABELS[state]}</Badge>
        {/* In the title's row: a row of its own pushed the image below the fold at 1440×900. */}
        <QualityBadges item={item} />
        {entry?.state === 'conflict' && (
          <Badge tone="bad">
            {entry.recorded?.startsWith('leased to ')
              ? `not sent: ${cut(entry.recorded)}`
              : `not saved: the service already held ${cut(entry.recorded ?? 'another decision')}`}
          </Badge>
        )}
        {entry?.state === 'failed' && entry.lastError && <Badge tone="bad">{cut(entry.lastError)}</Badge>}
        {entry?.state === 'held-team' && (
          <Badge tone="warn">{formatMicros(entry.priceMicros ?? 0)} held by the team’s budget: an admin of the hub releases it</Badge>
        )}
        {entry?.state === 'accepted-team' && <Badge tone="neutral">released by an admin: the hub sends it when the vendor answers</Badge>}
        {entry?.state === 'sent' && entry.teamVotes && <Badge tone="info">{teamVotesText(entry.teamVotes)}</Badge>}
        {entry && isTeammates(entry.state) && (
          <Badge tone="info">
            {/* One text node: the Badge is a flex box, which drops the spaces around an element child. */}
            <span title={entry.decidedBy}>{`decided by ${cut(entry.decidedBy ?? 'a teammate', 80)} on the team hub`}</span>
          </Badge>
        )}
        {entry?.state === 'dropped-team' && (
          <Badge tone="warn">your adopt was dropped on the hub{entry.droppedBy ? ` by ${cut(entry.droppedBy)}` : ''}: decide it again</Badge>
        )}
        {entry?.state === 'held-budget' && (
          <Badge tone="warn">
            {formatMicros(entry.priceMicros ?? 0)} not sent: {heldReason(entry, (id) => subscriptionName ?? id)}
          </Badge>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2 lg:gap-y-1">
        <Button
          variant="adopt"
          onClick={onAdopt}
          disabled={decided}
          aria-describedby={[item.priceMicros !== null ? priceId : '', readOnly ? readOnlyId : ''].join(' ').trim() || undefined}
          aria-keyshortcuts={ariaKeys('adopt')}
        >
          Adopt
        </Button>
        {item.priceMicros !== null && (
          <span id={priceId} className="text-sm">
            charges <strong className="font-mono">{formatMicros(item.priceMicros)}</strong>
          </span>
        )}
        <Button
          variant="danger"
          onClick={onDispute}
          disabled={decided}
          aria-describedby={readOnly ? readOnlyId : undefined}
          aria-keyshortcuts={ariaKeys('dispute')}
        >
          Dispute
        </Button>
        {readOnly && (
          <span id={readOnlyId} className="max-w-64 text-xs text-slate-600 dark:text-slate-400">
            {readOnly}
          </span>
        )}
        {lastAction}
      </div>
      {entry?.decision === 'dispute' && entry.reason && entry.state !== 'conflict' && (
        <p className="text-sm [overflow-wrap:anywhere]">
          <span className="font-medium">Dispute reason:</span> {entry.reason}
        </p>
      )}
      {/* On wide screens the card fills the room it has and the content shares it: the image takes
          what the rest leaves (min-h-0 down to it, no height cap), so the item is seen whole without
          scrolling the page; content taller than the card scrolls here, below the item's actions.
          The items rendered beside the focused one (the next, and the one just left until the
          keypress has painted) lie in the same box there, laid out and painted but transparent and
          inert: moving on only makes one opaque, with no layout or first paint of its content (its
          image already fitted) and nothing removed before that paint. Narrow screens do not display them. */}
      <div className="flex flex-col lg:relative lg:row-start-4 lg:min-h-0">
        {/* The reason picker lies over the top of the content on wide screens: opening and closing it
            resizes nothing (the image is not fitted again twice for each dispute). A dispute's Enter
            moves the card on and only hides it (its focus kept until it goes: DisputeReason): it goes in the render
            after that paint, which clears `disputeFor`, so React's deletion and the DOM's removal
            are not the keypress's work. Keyed by its item, so a picker opened again starts afresh. */}
        {disputeFor !== null && (disputeFor !== item.key || !decided) && (
          <div hidden={disputeFor !== item.key} className="max-lg:mb-2 lg:absolute lg:inset-x-0 lg:top-0 lg:z-10 lg:shadow-lg">
            <DisputeReason key={disputeFor} reasons={reasons} onConfirm={onDisputeConfirm} onCancel={onDisputeCancel} />
          </div>
        )}
        <ItemStack item={item} ahead={ahead} further={further} baseUrl={baseUrl} />
      </div>
    </section>
  );
}
