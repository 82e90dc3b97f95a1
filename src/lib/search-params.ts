import { defaultParseSearch, stringifySearchWith } from '@tanstack/react-router';
import { z } from '../api/contract/zod';

/**
 * How the URL's search is read and written. Reading is the router's default: `?limit=50` is a
 * number and `?run=true` a boolean. Writing leaves text as it is (the default writes the text
 * "1002" as `%221002%22`, so that it reads back as text), so a link with a task ID stays
 * readable; the text fields of the search schemas take numbers and booleans back as text.
 */
export const parseSearch = defaultParseSearch;
const writeSearch = stringifySearchWith(JSON.stringify);
/**
 * A number that is no number (a schema's NaN for text it could not read, as the review's page
 * size) is left out rather than written as `limit=NaN`: the page then reads its default.
 */
export const stringifySearch = (search: Record<string, unknown>) =>
  writeSearch(Object.fromEntries(Object.entries(search).filter(([, value]) => !(typeof value === 'number' && !Number.isFinite(value)))));

/** A text field of the URL: `?tasks=1002` arrives as the number 1002 and is read as "1002". */
export const urlText = () => z.union([z.string(), z.number(), z.boolean()]).transform(String);
