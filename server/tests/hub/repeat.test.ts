import { describe, expect, it } from 'vitest';
import { repeat } from '../../hub/repeat';

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
};

describe('repeat: the hub background chores’ loop', () => {
  it('never runs two rounds at once, however long one takes', async () => {
    let running = 0;
    let most = 0;
    let rounds = 0;
    const loop = repeat(
      1,
      async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        rounds++;
      },
      { now: true, onError: () => undefined },
    );
    await until(() => rounds >= 5);
    await loop.stop();
    expect(most).toBe(1);
  });

  it('a round that throws is reported, and the next round still comes', async () => {
    const errors: string[] = [];
    let rounds = 0;
    const loop = repeat(
      1,
      async () => {
        rounds++;
        if (rounds === 1) throw new Error('vendor away');
      },
      { now: true, onError: (error) => errors.push(error.message) },
    );
    await until(() => rounds >= 3);
    await loop.stop();
    expect(errors).toEqual(['vendor away']);
  });

  it('stop waits for the round under way, and no round starts after it', async () => {
    const inRound = gate();
    const release = gate();
    let finished = false;
    let rounds = 0;
    const loop = repeat(
      1,
      async () => {
        rounds++;
        inRound.open();
        await release.opened;
        finished = true;
      },
      { now: true, onError: () => undefined },
    );
    await inRound.opened;
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(stopped).toBe(false);
    release.open();
    await stopping;
    expect(finished).toBe(true);
    const after = rounds;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(rounds).toBe(after);
  });

  it('without now, the first round waits for the first pause', async () => {
    let rounds = 0;
    const loop = repeat(60_000, async () => void rounds++, { onError: () => undefined });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await loop.stop();
    expect(rounds).toBe(0);
  });
});
