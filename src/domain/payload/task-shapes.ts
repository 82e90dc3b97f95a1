import { WeakMemo } from '../../lib/memo';
/**
 * Detectors of common task shapes in delivered content, by shape rather than by task name (an
 * ETL-mapped payload still renders): text with character-offset spans, labels as chips,
 * dialogues, question and answer pairs, ratings, rankings, grades and scores. Pure and bounded:
 * a hostile payload costs a few thousand checks, and nothing here is ever HTML.
 */
type Json = Record<string, unknown>;

export interface Span {
  start: number;
  end: number;
  label: string;
}
export interface SpanText {
  field: string;
  text: string;
  spans: Span[];
  /** Spans left out: offsets outside the text, empty or reversed, or overlapping an earlier one. */
  ignored: number;
}
export interface Chips {
  field: string;
  values: string[];
}
interface Turn {
  speaker: string;
  text: string;
}
export interface Dialogue {
  field: string;
  turns: Turn[];
}
export interface QaPair {
  question: string;
  answer: string;
}
export interface Rating {
  field: string;
  value: number;
  max: number;
}
export interface Ranking {
  field: string;
  /** Best first. */
  entries: { rank: number; text: string }[];
}
export interface Grade {
  field: string;
  grade: string;
}
export interface Score {
  field: string;
  /** 0 to 1. */
  value: number;
}

const MAX_KEYS = 200;
const MAX_ENTRIES = 500;
const MAX_TEXT = 200_000;
const SHORT = 80;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const int = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const str = (v: unknown): v is string => typeof v === 'string';
const firstOf = (record: Json, keys: readonly string[]): unknown => {
  for (const key of keys) if (key in record) return record[key];
  return undefined;
};
const short = (text: string) => (text.length > SHORT ? `${text.slice(0, SHORT)}…` : text);

// Enumerating a record's keys costs as much as it has (a hostile one has thousands): each record is
// enumerated once for all detectors.
const seen = new WeakMemo<Json, [string, unknown][]>();

/** The record's own fields, bounded. */
function fields(record: Json): [string, unknown][] {
  return seen.of(record, () => {
    const out: [string, unknown][] = [];
    for (const key in record) {
      if (out.length >= MAX_KEYS) break;
      if (Object.hasOwn(record, key)) out.push([key, record[key]]);
    }
    return out;
  });
}

/** The payload and the records directly inside it, with the path to each. */
function records(value: unknown): [string, Json][] {
  if (!isRecord(value)) return [];
  const found: [string, Json][] = [['', value]];
  for (const [key, child] of fields(value)) if (isRecord(child)) found.push([key, child]);
  return found;
}
const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

// Spans -----------------------------------------------------------------------------------------

const TEXT_KEYS = ['text', 'content', 'sentence', 'document', 'passage', 'body', 'utterance', 'input'];
const START_KEYS = ['start', 'start_offset', 'startOffset', 'begin', 'char_start', 'from'];
const END_KEYS = ['end', 'end_offset', 'endOffset', 'char_end', 'to'];
const LABEL_KEYS = ['label', 'type', 'entity', 'entity_group', 'tag', 'category', 'class'];

interface RawSpan {
  start: number;
  end: number;
  label: string;
  text?: string;
}

/** `{start, end, label}` (and the usual synonyms) or `[start, end, label]`. */
function toSpan(value: unknown): RawSpan | null {
  if (Array.isArray(value)) {
    const [start, end, label] = value;
    return value.length === 3 && int(start) && int(end) && str(label) ? { start, end, label: short(label) } : null;
  }
  if (!isRecord(value)) return null;
  const start = firstOf(value, START_KEYS);
  const end = firstOf(value, END_KEYS);
  const label = firstOf(value, LABEL_KEYS);
  if (!int(start) || !int(end)) return null;
  return { start, end, label: str(label) ? short(label) : '', text: str(value.text) ? value.text : undefined };
}

/** A list is spans when at least half its entries read as spans (and one does). */
function spanList(value: unknown): RawSpan[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const slice = value.slice(0, MAX_ENTRIES);
  const spans = slice.map(toSpan).filter((s): s is RawSpan => s !== null);
  return spans.length > 0 && spans.length * 2 >= slice.length ? spans : null;
}

/**
 * Offsets from Python count code points, from JavaScript UTF-16 units: where the text has
 * characters outside the BMP and the spans' own copies of their text match only as code points,
 * they are converted.
 */
function toUtf16(text: string, spans: RawSpan[]): RawSpan[] {
  if (!/[\uD800-\uDFFF]/.test(text) || !spans.some((s) => s.text !== undefined)) return spans;
  const unitsMatch = spans.every((s) => s.text === undefined || text.slice(s.start, s.end) === s.text);
  if (unitsMatch) return spans;
  const points = Array.from(text);
  const pointsMatch = spans.every((s) => s.text === undefined || points.slice(s.start, s.end).join('') === s.text);
  if (!pointsMatch) return spans;
  const offset = (n: number) => points.slice(0, Math.max(0, n)).join('').length;
  return spans.map((s) => ({ ...s, start: offset(s.start), end: offset(s.end) }));
}

/** Clamps to the text, drops empty, reversed and overlapping spans; sorted by start. */
export function normalizeSpans(text: string, raw: RawSpan[]): { spans: Span[]; ignored: number } {
  const sorted = toUtf16(text, raw)
    .map((s) => ({ start: Math.max(0, s.start), end: Math.min(text.length, s.end), label: s.label }))
    .filter((s) => s.start < s.end)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const spans: Span[] = [];
  for (const span of sorted) if (!spans.length || span.start >= spans[spans.length - 1]!.end) spans.push(span);
  return { spans, ignored: raw.length - spans.length };
}

/** Text with character-offset spans: `{text, spans|entities|…: [...]}`, in the payload or one level down. */
export function findSpanText(value: unknown): SpanText | null {
  for (const [path, record] of records(value)) {
    const textKey = TEXT_KEYS.find((k) => str(record[k]));
    if (!textKey) continue;
    const text = (record[textKey] as string).slice(0, MAX_TEXT);
    for (const [key, child] of fields(record)) {
      const raw = spanList(child);
      if (!raw) continue;
      const { spans, ignored } = normalizeSpans(text, raw);
      return { field: join(path, key), text, spans, ignored };
    }
  }
  return null;
}

// Chips -----------------------------------------------------------------------------------------

const CHIP_KEY = /^(labels?|class(es)?|categor(y|ies)|tags?|intents?|topics?|sentiment|classification|genres?|keywords)$/i;

/** Labels and classes: a string, or a list of strings, under a key that names them. */
export function findChips(value: unknown): Chips[] {
  const found: Chips[] = [];
  for (const [path, record] of records(value)) {
    for (const [key, child] of fields(record)) {
      if (!CHIP_KEY.test(key)) continue;
      const values = str(child) ? [child] : Array.isArray(child) && child.length > 0 && child.length <= 50 && child.every(str) ? child : null;
      if (values && values.every((v) => v.length > 0 && v.length <= 200)) found.push({ field: join(path, key), values: values.map(short) });
    }
  }
  return found;
}

// Dialogues -------------------------------------------------------------------------------------

const SPEAKER_KEYS = ['role', 'speaker', 'author', 'from', 'sender', 'user'];
const TURN_TEXT_KEYS = ['text', 'content', 'message', 'utterance', 'value'];

function toTurn(value: unknown): Turn | null {
  if (!isRecord(value)) return null;
  const speaker = firstOf(value, SPEAKER_KEYS);
  const text = firstOf(value, TURN_TEXT_KEYS);
  return str(speaker) && str(text) ? { speaker: short(speaker), text: text.slice(0, 20_000) } : null;
}

function turnList(value: unknown): Turn[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const turns = value.slice(0, MAX_ENTRIES).map(toTurn);
  return turns.every((t) => t !== null) ? (turns as Turn[]) : null;
}

/** A dialogue: a list of `{role|speaker, text|content}` turns, the payload itself or one of its lists. */
export function findDialogue(value: unknown): Dialogue | null {
  const direct = turnList(value);
  if (direct) return { field: '', turns: direct };
  for (const [path, record] of records(value)) {
    for (const [key, child] of fields(record)) {
      const turns = turnList(child);
      if (turns) return { field: join(path, key), turns };
    }
  }
  return null;
}

// Questions and answers -------------------------------------------------------------------------

const QUESTION_KEYS = ['question', 'prompt', 'query', 'instruction', 'q'];
const ANSWER_KEYS = ['answer', 'response', 'completion', 'reply', 'a'];

function toQa(value: unknown): QaPair | null {
  if (!isRecord(value)) return null;
  const question = firstOf(value, QUESTION_KEYS);
  const answer = firstOf(value, ANSWER_KEYS);
  return str(question) && str(answer) ? { question: question.slice(0, 20_000), answer: answer.slice(0, 20_000) } : null;
}

/** Question and answer pairs: one in the payload, or a list of them. */
export function findQaPairs(value: unknown): QaPair[] {
  for (const [, record] of records(value)) {
    const one = toQa(record);
    if (one) return [one];
    for (const [, child] of fields(record)) {
      if (!Array.isArray(child) || child.length === 0) continue;
      const pairs = child.slice(0, MAX_ENTRIES).map(toQa);
      if (pairs.every((p) => p !== null)) return pairs as QaPair[];
    }
  }
  return [];
}

// Ratings, grades, scores -----------------------------------------------------------------------

const RATING_KEY = /(^|_)(rating|stars|csat|likert|nps)$/i;
const GRADE_KEY = /(^|_)grade$/i;
const SCORE_KEY = /(^|_)(score|confidence|quality)$/i;

/** Ratings: whole numbers from 0 to 10 under a key that names one; out of 5 unless above 5. */
export function findRatings(value: unknown): Rating[] {
  const found: Rating[] = [];
  for (const [path, record] of records(value)) {
    for (const [key, child] of fields(record)) {
      if (RATING_KEY.test(key) && int(child) && child >= 0 && child <= 10) found.push({ field: join(path, key), value: child, max: child > 5 ? 10 : 5 });
    }
  }
  return found;
}

/** Letter grades (A to F, with + or -). */
export function findGrades(value: unknown): Grade[] {
  const found: Grade[] = [];
  for (const [path, record] of records(value)) {
    for (const [key, child] of fields(record)) {
      if (GRADE_KEY.test(key) && str(child) && /^[A-F][+-]?$/i.test(child)) found.push({ field: join(path, key), grade: child.toUpperCase() });
    }
  }
  return found;
}

/** Scores and confidences between 0 and 1. */
export function findScores(value: unknown): Score[] {
  const found: Score[] = [];
  for (const [path, record] of records(value)) {
    for (const [key, child] of fields(record)) {
      if (SCORE_KEY.test(key) && typeof child === 'number' && child >= 0 && child <= 1) found.push({ field: join(path, key), value: child });
    }
  }
  return found;
}

// Rankings --------------------------------------------------------------------------------------

const RANK_KEYS = ['rank', 'position', 'place', 'order'];
const RANKED_TEXT_KEYS = ['text', 'response', 'content', 'answer', 'completion', 'candidate', 'name', 'label', 'title', 'id'];
const RANKING_KEY = /^(rank(ing|ed|s)?|preference|order(ed)?)(_\w+)?$/i;

function rankedEntry(value: unknown): { rank: number; text: string } | null {
  if (!isRecord(value)) return null;
  const rank = firstOf(value, RANK_KEYS);
  const text = firstOf(value, RANKED_TEXT_KEYS);
  if (typeof rank !== 'number' || !Number.isFinite(rank)) return null;
  return { rank, text: str(text) || typeof text === 'number' ? String(text).slice(0, 20_000) : '' };
}

/** A ranking: a list of records with a rank, or a list of strings under a key that names a ranking (in order). */
export function findRanking(value: unknown): Ranking | null {
  for (const [path, record] of records(value)) {
    for (const [key, child] of fields(record)) {
      if (!Array.isArray(child) || child.length < 2) continue;
      const slice = child.slice(0, MAX_ENTRIES);
      const ranked = slice.map(rankedEntry);
      if (ranked.every((r) => r !== null)) {
        const entries = (ranked as { rank: number; text: string }[]).sort((a, b) => a.rank - b.rank);
        return { field: join(path, key), entries };
      }
      if (RANKING_KEY.test(key) && slice.every(str))
        return { field: join(path, key), entries: slice.map((text, i) => ({ rank: i + 1, text: text.slice(0, 20_000) })) };
    }
  }
  return null;
}

// All of them -----------------------------------------------------------------------------------

export interface TaskShapes {
  spans: SpanText | null;
  chips: Chips[];
  dialogue: Dialogue | null;
  qa: QaPair[];
  ratings: Rating[];
  ranking: Ranking | null;
  grades: Grade[];
  scores: Score[];
  /** The main text, when there is one and no spans were found in it. */
  text: { field: string; text: string } | null;
}

export function detectTaskShapes(value: unknown): TaskShapes {
  const spans = findSpanText(value);
  const dialogue = findDialogue(value);
  let text: TaskShapes['text'] = null;
  if (!spans && isRecord(value)) {
    const key = TEXT_KEYS.find((k) => str(value[k]));
    if (key) text = { field: key, text: (value[key] as string).slice(0, MAX_TEXT) };
  }
  return {
    spans,
    chips: findChips(value),
    dialogue,
    qa: findQaPairs(value),
    ratings: findRatings(value),
    ranking: findRanking(value),
    grades: findGrades(value),
    scores: findScores(value),
    text,
  };
}

/** True when any shape was found: otherwise the content shows as the JSON tree. */
export const hasTaskShape = (s: TaskShapes) =>
  !!(s.spans || s.dialogue || s.ranking || s.text) || s.chips.length + s.qa.length + s.ratings.length + s.grades.length + s.scores.length > 0;
