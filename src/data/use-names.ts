import { createContext, useContext } from 'react';
import { NO_NAMES, type Names } from './names';

/**
 * The names the service publishes, read once by the shell and handed down: a list row reads them
 * from context (cheap) rather than each row observing a query. Without a provider (unit tests,
 * before the names arrive) every ID stays an ID.
 */
export const NamesContext = createContext<Names>(NO_NAMES);
export const useNames = (): Names => useContext(NamesContext);
