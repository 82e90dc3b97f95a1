import { createQueryId, PostgresAdapter, type Compilable, type CompiledQuery, type Kysely } from 'kysely';
import type { HubTables } from './schema';

/*
 * A statement whose text never changes, built and compiled by Kysely once per engine; each run
 * only binds its values. Building and compiling a query anew (its operation tree parsed, frozen
 * and visited) cost 10–70 µs of the hub's thread per statement, and a decision runs about twenty
 * (docs/hub.md, "Where a request's time goes").
 */

/** Stands where a value goes while the statement is built once; each run puts the value there. */
class Hole {
  constructor(readonly name: string) {}
  // A hole in a sum, a date or a string would compile to a wrong constant, silently: it throws instead.
  [Symbol.toPrimitive](): never {
    throw new Error(`shaped statement: ${this.name} used in a computation, not as a value`);
  }
}

/**
 * `build` gets holes in place of `names`' values and must use each as a value only (a parameter):
 * never in a branch, a sum or a string. `shapes.test.ts` compares every shaped statement with the
 * same one built directly.
 */
export function shaped<V extends object>(names: readonly (keyof V & string)[], build: (db: Kysely<HubTables>, values: V) => Compilable) {
  const compiled = new Map<string, CompiledQuery>();
  const holes = Object.fromEntries(names.map((name) => [name, new Hole(name)])) as unknown as V;
  const once = (db: Kysely<HubTables>) => {
    const engine = db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
    let query = compiled.get(engine);
    if (!query) {
      query = build(db, holes).compile();
      const used = new Set(query.parameters.filter((p) => p instanceof Hole).map((p) => p.name));
      const unused = names.filter((name) => !used.has(name));
      if (unused.length > 0) throw new Error(`shaped statement: ${unused.join(', ')} not bound as parameters in ${query.sql}`);
      compiled.set(engine, query);
    }
    return query;
  };
  return (db: Kysely<HubTables>, values: V): Compilable => {
    const query = once(db);
    const parameters = query.parameters.map((p) => {
      if (!(p instanceof Hole)) return p;
      const value = (values as Record<string, unknown>)[p.name];
      // An omitted value would be an omitted column in a built insert, never a NULL: refused.
      if (value === undefined) throw new Error(`shaped statement: no value for ${p.name}`);
      return value;
    });
    const bound: CompiledQuery = { query: query.query, queryId: createQueryId(), sql: query.sql, parameters };
    return { compile: () => bound };
  };
}
