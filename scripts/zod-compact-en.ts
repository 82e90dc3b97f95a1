/*
 * Zod's English messages in a few hundred bytes, for the browser build (scripts/vite-zod-json-schema.ts
 * puts it in place of zod/v4/locales/en.js). Zod's own module carries a dictionary of ~30 string
 * formats the console never checks, ~1 KB gzipped of the first page. The sentences are zod's, word
 * for word (a person reads them in "the server's answer does not match the contract" and in damaged
 * settings); only formats outside FORMATS read by their raw name ("Invalid cuid2").
 * scripts/zod-compact-en.test.ts holds it to zod's own output.
 */

type Issue = Record<string, unknown> & { code?: string; input?: unknown };

const UNITS: Record<string, string> = { string: 'characters', file: 'bytes', array: 'items', set: 'items', map: 'entries' };
const FORMATS: Record<string, string> = {
  regex: 'input',
  email: 'email address',
  url: 'URL',
  uuid: 'UUID',
  datetime: 'ISO datetime',
  date: 'ISO date',
  time: 'ISO time',
  duration: 'ISO duration',
  template_literal: 'input',
};

const show = (value: unknown) => (typeof value === 'bigint' ? `${value}n` : typeof value === 'string' ? `"${value}"` : `${value as string}`);
const join = (values: unknown, separator: string) => (values as unknown[]).map(show).join(separator);

function received(input: unknown): string {
  if (typeof input === 'number') return Number.isNaN(input) ? 'NaN' : Number.isFinite(input) ? 'number' : String(input);
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (typeof input === 'object') {
    const proto = Object.getPrototypeOf(input) as unknown;
    const name = (input as { constructor?: { name?: unknown } }).constructor?.name;
    return proto !== Object.prototype && typeof name === 'string' ? name : 'object';
  }
  return typeof input;
}

function size(issue: Issue, big: boolean): string {
  const adj = issue.exact ? 'exactly ' : issue.inclusive ? (big ? '<=' : '>=') : big ? '<' : '>';
  const bound = String(big ? issue.maximum : issue.minimum);
  const origin = issue.origin as string | undefined;
  const unit = origin ? UNITS[origin] : undefined;
  const what = big ? (origin ?? 'value') : origin;
  return `Too ${big ? 'big' : 'small'}: expected ${what} ${unit ? `to have ${adj}${bound} ${unit}` : `to be ${adj}${bound}`}`;
}

function message(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `Invalid input: expected ${issue.expected === 'nan' ? 'NaN' : (issue.expected as string)}, received ${received(issue.input)}`;
    case 'invalid_value': {
      const values = issue.values as unknown[];
      return values.length === 1 ? `Invalid input: expected ${show(values[0])}` : `Invalid option: expected one of ${join(values, '|')}`;
    }
    case 'too_big':
      return size(issue, true);
    case 'too_small':
      return size(issue, false);
    case 'invalid_format': {
      const format = issue.format as string;
      if (format === 'starts_with') return `Invalid string: must start with "${issue.prefix as string}"`;
      if (format === 'ends_with') return `Invalid string: must end with "${issue.suffix as string}"`;
      if (format === 'includes') return `Invalid string: must include "${issue.includes as string}"`;
      if (format === 'regex') return `Invalid string: must match pattern ${issue.pattern as string}`;
      return `Invalid ${FORMATS[format] ?? format}`;
    }
    case 'not_multiple_of':
      return `Invalid number: must be a multiple of ${issue.divisor as number}`;
    case 'unrecognized_keys': {
      const keys = issue.keys as unknown[];
      return `Unrecognized key${keys.length > 1 ? 's' : ''}: ${join(keys, ', ')}`;
    }
    case 'invalid_key':
      return `Invalid key in ${issue.origin as string}`;
    case 'invalid_union': {
      const options = issue.options;
      if (Array.isArray(options) && options.length > 0) return `Invalid discriminator value. Expected ${options.map((o) => `'${o as string}'`).join(' | ')}`;
      return issue.inclusive === false ? 'Invalid input: more than one option matched' : 'Invalid input';
    }
    case 'invalid_element':
      return `Invalid value in ${issue.origin as string}`;
    default:
      return 'Invalid input';
  }
}

export default function en() {
  return { localeError: message };
}
