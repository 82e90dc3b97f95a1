import { useLayoutEffect, useRef, useState } from 'react';

type Handlers = Record<string, (...args: never[]) => unknown>;

/**
 * The handlers given, as functions made once that call the latest ones: memoised children (the
 * list's rows) are not re-rendered for new callbacks on every keypress, effects that call them do
 * not re-run, and each still sees the state of the last render. The set of names must not change;
 * they are for events and effects, not for calling during render.
 */
export function useStableHandlers<T extends Handlers>(handlers: T): T {
  const latest = useRef(handlers);
  // Updated in the commit itself, so the very next event sees this render's handlers.
  useLayoutEffect(() => {
    latest.current = handlers;
  });
  const [stable] = useState(() => {
    const made: Record<string, (...args: never[]) => unknown> = {};
    for (const name of Object.keys(handlers)) made[name] = (...args) => latest.current[name]!(...args);
    return made as T;
  });
  return stable;
}
