import { hash, verify } from '@node-rs/argon2';

/*
 * argon2id through @node-rs/argon2 (prebuilt, no install script). The parameters travel in the
 * PHC string, so a hash made at the test cost still verifies at the full one, and back.
 * The algorithm is the library's default, argon2id: its `Algorithm` is a const enum, which
 * isolatedModules cannot import.
 */

/** OWASP's argon2id minimum (m = 19 MiB, t = 2, p = 1); HUB_PASSWORD_COST=low is for tests only. */
const cost = () =>
  process.env.HUB_PASSWORD_COST === 'low' ? { memoryCost: 1024, timeCost: 1, parallelism: 1 } : { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export { PASSWORD_MAX, PASSWORD_MIN } from '../../src/api/contract/hub';

/** Hashing is the hub's costliest work and sign-in is open to anyone: at most this many at once (the machine's cores). */
const MAX_CONCURRENT = 2;

export interface Passwords {
  hash: (password: string) => Promise<string>;
  /** True only for a member's right password; an unknown member (`undefined`) costs the same time. */
  check: (stored: string | undefined, password: string) => Promise<boolean>;
}

/** One per hub (and per CLI run): a flood of sign-ins waits its turn instead of starving every other request. */
export function createPasswords(): Passwords {
  let running = 0;
  const queue: (() => void)[] = [];
  const limited = async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= MAX_CONCURRENT) await new Promise<void>((go) => queue.push(go));
    running++;
    try {
      return await work();
    } finally {
      running--;
      queue.shift()?.();
    }
  };
  const hashPassword = (password: string) => limited(() => hash(password, cost()));
  let dummy: Promise<string> | undefined;
  return {
    hash: hashPassword,
    async check(stored, password) {
      // An unknown email is verified against a dummy hash: same time, same answer as a wrong password.
      dummy ??= hashPassword('not-a-member-password-dummy');
      const target = stored ?? (await dummy);
      const ok = await limited(() => verify(target, password).catch(() => false));
      return ok && stored !== undefined;
    },
  };
}
