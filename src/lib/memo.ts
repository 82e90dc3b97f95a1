/**
 * Memos: a result kept by the identity of what it was computed from, so asking again costs a lookup.
 * What a memo holds is derived from its input alone, and that input is never changed in place (rows,
 * columns, records, a stored text), so dropping a memo changes nothing but time: it is not state.
 * `npm run house` lists memos apart from the module-level mutable bindings for that reason; nothing
 * that holds state (a registry, listeners, a cache that must be invalidated) belongs behind these.
 */

/** Values by the object they were computed from (weakly: a key no longer used is collected with its value). */
export class WeakMemo<K extends object, V> {
  private readonly values = new WeakMap<K, V>();
  /** The value last computed or set: an incremental build may start from it (it is derived, never the truth). */
  last: V | undefined;

  get(key: K): V | undefined {
    return this.values.get(key);
  }

  has(key: K): boolean {
    return this.values.has(key);
  }

  /** Keeps a value computed elsewhere (an asynchronous read, or a by-product of another computation). */
  set(key: K, value: V): V {
    this.values.set(key, value);
    this.last = value;
    return value;
  }

  /** The value for `key`, computed once (`last` is the value computed before, for an incremental build). */
  of(key: K, compute: (key: K, last: V | undefined) => V): V {
    return this.values.has(key) ? this.values.get(key)! : this.set(key, compute(key, this.last));
  }
}

/**
 * `compute`, remembering its last call: called again with the same arguments (each the same by
 * `Object.is`), it returns the last result without computing. For work asked again and again with
 * one input until it changes (the last search, the last stored text).
 */
export function lastResult<A extends readonly unknown[], V>(compute: (...args: A) => V): (...args: A) => V {
  let last: { args: A; value: V } | null = null;
  return (...args: A): V => {
    if (last && last.args.length === args.length && last.args.every((arg, i) => Object.is(arg, args[i]))) return last.value;
    const value = compute(...args);
    last = { args, value };
    return value;
  };
}
