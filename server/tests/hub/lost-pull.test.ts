import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';
import { holdVendorKey, startRelay, startVendor, type Vendor } from './decisions-kit';

/*
 * A team pull whose answer is lost: the vendor moved the subscription's position, the hub never
 * got the items. The hub's recovery keeps exactly what the lost pull took (the items past the
 * position it last saw, as many as the pull asked for), not the subscription's whole history;
 * and when the lost pull's size is unknown (a hub killed mid-pull), at most one full page.
 * The vendor's own re-read is the judge of the order.
 */

const LIVE = 'sub_live_streets';

describe.each(ENGINES)('a lost team pull on %s', (engine) => {
  let vendor: Vendor;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let t: TestHub;
  let reviewer = '';
  let failNextPull = false;
  /** Every item of the subscription, in the vendor's order (a re-read with the key, as a buyer would). */
  let all: string[] = [];

  beforeAll(async () => {
    vendor = await startVendor();
    relay = await startRelay(vendor.url, {
      answer: (req, answer, res) => {
        const url = req.url ?? '';
        if (!failNextPull || !url.startsWith('/v1/live/pull') || url.includes('from=beginning')) return true;
        // The vendor acted on the pull and moved the position; its answer becomes a 502.
        failNextPull = false;
        answer.resume();
        res.writeHead(502, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: 'bad gateway' }));
        return false;
      },
    });
    t = await startTestHub(engine, { upstream: relay.url });
    await holdVendorKey(t, await t.signIn(t.accounts.admin), vendor.credentials);
    reviewer = await t.signIn(t.accounts.reviewer1);
    let cursor = '';
    do {
      const page = await fetch(`${vendor.url}/v1/live/pull?subscription_id=${LIVE}&limit=200&from=beginning${cursor ? `&cursor=${cursor}` : ''}`, {
        headers: { Authorization: `Bearer ${vendor.credentials.api_key}` },
      });
      const body = (await page.json()) as { data: { items: { submission_id: string }[]; has_more: boolean; next_cursor: string } };
      all.push(...body.data.items.map((i) => i.submission_id));
      cursor = body.data.has_more ? encodeURIComponent(body.data.next_cursor) : '';
    } while (cursor);
  });
  afterAll(async () => {
    await t?.close();
    await relay?.close();
    await vendor?.close();
    all = [];
  });

  const inbox = async () =>
    (await t.hub.store.db.selectFrom('inbox_items').select(['item_id', 'arrived_how', 'seq']).where('subscription_id', '=', LIVE).orderBy('seq').execute()).map(
      (r) => ({ ...r, seq: Number(r.seq) }),
    );
  const pull = (limit: number) => t.call('GET', `/v1/live/pull?subscription_id=${LIVE}&limit=${limit}`, { cookie: reviewer });

  it('keeps what the lost pull took and nothing past it, then pulls on from where the vendor stands', async () => {
    expect(all.length, 'the demo subscription has more than a page past what this test pulls').toBeGreaterThan(240);
    expect((await pull(5)).status).toBe(200);

    // "Pull new" for 7: the vendor moves past 7 items, the hub is answered 502.
    failNextPull = true;
    const lost = await pull(7);
    expect(lost.status).toBe(502);
    let kept = await inbox();
    expect(kept.map((r) => r.item_id)).toEqual(all.slice(0, 12));
    expect(kept.map((r) => r.arrived_how)).toEqual([...Array(5).fill('pull'), ...Array(7).fill('recover')]);

    // The next pull starts after them: nothing twice, nothing skipped.
    const next = await pull(5);
    expect((next.body.data.items as { submission_id: string }[]).map((i) => i.submission_id)).toEqual(all.slice(12, 17));
    kept = await inbox();
    expect(kept.map((r) => r.item_id)).toEqual(all.slice(0, 17));
    expect(kept.map((r) => r.seq)).toEqual(kept.map((_, i) => i + 1));
    const state = await t.hub.store.db.selectFrom('inbox_pulls').selectAll().where('subscription_id', '=', LIVE).executeTakeFirstOrThrow();
    expect([state.claim_id, Number(state.lost), state.position_item]).toEqual([null, 0, all[16]]);
  });

  it('a pull lost with a killed hub (its size unknown) costs at most one full page kept ahead', async () => {
    // A hub died holding the claim after the vendor moved past 3 items.
    await t.hub.store.db
      .updateTable('inbox_pulls')
      .set({ claim_id: 'dead-hub', claimed_until: Date.now() - 1 })
      .where('subscription_id', '=', LIVE)
      .execute();
    const taken = await fetch(`${vendor.url}/v1/live/pull?subscription_id=${LIVE}&limit=3`, {
      headers: { Authorization: `Bearer ${vendor.credentials.api_key}` },
    });
    expect(((await taken.json()) as { data: { items: { submission_id: string }[] } }).data.items.map((i) => i.submission_id)).toEqual(all.slice(17, 20));

    const next = await pull(5);
    expect(next.status, next.text).toBe(200);
    expect((next.body.data.items as { submission_id: string }[]).map((i) => i.submission_id)).toEqual(all.slice(20, 25));
    const kept = await inbox();
    // The 3 taken are kept, and with them the rest of a 200-item page past the position: no more.
    expect(kept.map((r) => r.item_id)).toEqual(all.slice(0, 17 + 200));
    expect(kept.slice(17).every((r) => r.arrived_how === 'recover')).toBe(true);
  });
});
