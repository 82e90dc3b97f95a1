import { startTestHub, type TestEngine, type TestHub } from './hub-harness';
import { holdVendorKey, startGate, startVendor, type Gate, type Vendor } from './decisions-kit';

/** The team the overlap suites vote with: a hub before the simulator (through a counting gate) holding its key, an admin and three reviewers signed in. */
export interface VotingTeam {
  vendor: Vendor;
  gate: Gate;
  t: TestHub;
  /** Session cookies. */
  admin: string;
  r1: string;
  r2: string;
  r3: string;
  close: () => Promise<void>;
}

export async function startVotingTeam(engine: TestEngine): Promise<VotingTeam> {
  const vendor = await startVendor();
  const gate = await startGate(vendor.url);
  const t = await startTestHub(engine, { upstream: gate.url, retry: { baseMs: 20, maxMs: 200, pollMs: 20 } });
  const admin = await t.signIn(t.accounts.admin);
  await holdVendorKey(t, admin, vendor.credentials);
  const third = { email: 'reviewer3@demo.hub', password: 'third-reviewer-pass', role: 'reviewer' };
  const added = await t.call('POST', '/hub/v1/members', { cookie: admin, body: third });
  if (added.status !== 201) throw new Error(`the third reviewer was not added: ${added.text}`);
  return {
    vendor,
    gate,
    t,
    admin,
    r1: await t.signIn(t.accounts.reviewer1),
    r2: await t.signIn(t.accounts.reviewer2),
    r3: await t.signIn(third),
    async close() {
      await t.close();
      await gate.close();
      await vendor.close();
    },
  };
}
