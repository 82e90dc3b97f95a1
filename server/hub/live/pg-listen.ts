import pg from 'pg';

/** The channel the audit trigger (migration 0009) notifies at every commit that appended audit rows. */
const AUDIT_CHANNEL = 'hub_audit';

export interface Listener {
  stop: () => Promise<void>;
}

/**
 * One LISTEN connection per hub process: every commit that appended audit rows, by any hub or the
 * CLI on the same PostgreSQL, wakes this process's stream. A connection that drops is opened again
 * (1 s, doubling to 30 s), and the stream is woken then, since notifications sent meanwhile are lost.
 */
export function listenForAudit(url: string, wake: () => void, log?: (line: string) => void): Listener {
  let client: pg.Client | null = null;
  let stopped = false;
  let delay = 1_000;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const retry = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, delay);
    timer.unref?.();
    delay = Math.min(delay * 2, 30_000);
  };

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    client = next;
    next.on('notification', () => wake());
    next.on('error', (error) => {
      log?.(`events: the LISTEN connection was lost: ${error.message}`);
      void next.end().catch(() => undefined);
      if (client === next) client = null;
      retry();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${AUDIT_CHANNEL}`);
      if (stopped) return void (await next.end().catch(() => undefined));
      delay = 1_000;
      wake();
    } catch (error) {
      log?.(`events: LISTEN failed: ${(error as Error).message}`);
      void next.end().catch(() => undefined);
      if (client === next) client = null;
      retry();
    }
  }

  void connect();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await client?.end().catch(() => undefined);
      client = null;
    },
  };
}
