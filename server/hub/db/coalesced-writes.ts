import type pg from 'pg';

/**
 * Makes the queries a pool client is given in one synchronous run go to the server in one write.
 *
 * In pipeline mode node-postgres writes each query as it is called: a statement with parameters
 * is one write (its Parse, Bind, Describe, Execute and Sync corked together), BEGIN and COMMIT one
 * each. A batch of `inOrder` (in-order.ts), or a BEGIN sent with the first statement
 * (pipelined-driver.ts), calls several queries in a row, which were as many writes: on this kind of
 * machine a loopback write is the costliest step of a round trip (the server is woken from inside
 * it), and a decision made about twenty of them. Corked until the current run of code ends, they
 * are one; as Node's own HTTP does for a response, the socket is uncorked on `process.nextTick`,
 * before any I/O is waited for, so nothing is held back.
 */
export function coalesceWrites(client: pg.PoolClient): void {
  const connection = (client as unknown as pg.Client).connection;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  let corked = false;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    // Read at each call: the socket is replaced when a connection upgrades to TLS.
    const socket = connection.stream;
    if (!corked && typeof socket.cork === 'function') {
      corked = true;
      socket.cork();
      process.nextTick(() => {
        corked = false;
        socket.uncork();
      });
    }
    return query(...args);
  };
}
