/** A reader of the hub's server-sent events for tests: every event as parsed, and a wait for the one a test expects. */

export interface StreamEvent {
  event: string;
  id: string | undefined;
  data: any;
}

export interface OpenStream {
  status: number;
  headers: Headers;
  /** Every event so far, in order. */
  events: StreamEvent[];
  /** Everything received, as text (to check what never appears in it). */
  raw: () => string;
  /** Resolves with the first event (from the start) that matches; the test's own timeout bounds the wait. */
  next: (match: (e: StreamEvent) => boolean) => Promise<StreamEvent>;
  /** Resolves when the hub ended the stream. */
  ended: Promise<void>;
  close: () => void;
}

/** `onEvent` is called as each event arrives (the benchmark times them). */
export async function openStream(url: string, headers: Record<string, string>, onEvent?: (e: StreamEvent) => void): Promise<OpenStream> {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  const events: StreamEvent[] = [];
  const waiters: { match: (e: StreamEvent) => boolean; resolve: (e: StreamEvent) => void }[] = [];
  let text = '';
  let buffer = '';
  const push = (block: string) => {
    let event = 'message';
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length === 0) return;
    const parsed: StreamEvent = { event, id, data: JSON.parse(data.join('\n')) };
    events.push(parsed);
    onEvent?.(parsed);
    for (const w of [...waiters]) {
      if (!w.match(parsed)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(parsed);
    }
  };
  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    try {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const piece = decoder.decode(value, { stream: true });
        text += piece;
        buffer += piece;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          push(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
        }
      }
    } catch {
      /* aborted by the test */
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    events,
    raw: () => text,
    next: (match) => {
      const found = events.find(match);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiters.push({ match, resolve }));
    },
    ended,
    close: () => abort.abort(),
  };
}
