/**
 * The one rule for an ID the service accepts in a path or a query (docs/contract.md): letters,
 * digits, `.`, `_`, `:` and `-`, and never `.` or `..`, so an ID can always be put in a URL
 * path as it is and can never name a parent or the current segment.
 */
const ID_PATTERN = /^[A-Za-z0-9._:-]+$/;

export const isValidId = (id: string): boolean => ID_PATTERN.test(id) && id !== '.' && id !== '..';
