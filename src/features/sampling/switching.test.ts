import { describe, expect, it } from 'vitest';
import { REDUCED_SCORE, runSwitching, transition, START, type SwitchingEvent } from './switching';

let n = 0;
const lot = (outcome: 'accepted' | 'rejected' | 'accepted-return', ac = 2, tighter = true): SwitchingEvent => ({
  kind: 'lot',
  lotId: `lot${n++}`,
  outcome,
  ac,
  acceptedOneStepTighter: tighter,
});
const A = () => lot('accepted');
const R = () => lot('rejected');
const states = (events: SwitchingEvent[]) => runSwitching(events).steps.map((s) => s.to);

describe('normal ↔ tightened', () => {
  it('2 rejections within 5 consecutive lots switch to tightened (the second rejection switches)', () => {
    expect(states([A(), R(), A(), A(), R()])).toEqual(['normal', 'normal', 'normal', 'normal', 'tightened']);
  });
  it('2 rejections 5 lots apart do not: the window is the last 5', () => {
    expect(states([R(), A(), A(), A(), A(), R()]).at(-1)).toBe('normal');
  });
  it('two rejections in a row switch at once', () => expect(states([R(), R()])).toEqual(['normal', 'tightened']));
  it('tightened → normal after 5 consecutive acceptances; a rejection restarts the count', () => {
    const s = states([R(), R(), A(), A(), A(), A(), R(), A(), A(), A(), A(), A()]);
    expect(s.slice(2, 6)).toEqual(['tightened', 'tightened', 'tightened', 'tightened']);
    expect(s[6]).toBe('tightened');
    expect(s.slice(7)).toEqual(['tightened', 'tightened', 'tightened', 'tightened', 'normal']);
  });
  it('the window starts afresh on returning to normal', () => {
    const back = [R(), R(), A(), A(), A(), A(), A()];
    expect(states([...back, R()]).at(-1)).toBe('normal');
  });
});

describe('discontinuation', () => {
  it('5 lots not accepted while on tightened (not necessarily consecutive) discontinue; resume restarts on tightened', () => {
    const { steps, machine } = runSwitching([R(), R(), R(), A(), R(), R(), A(), R(), R()]);
    expect(steps.map((s) => s.to)).toEqual([
      'normal',
      'tightened',
      'tightened',
      'tightened',
      'tightened',
      'tightened',
      'tightened',
      'tightened',
      'discontinued',
    ]);
    expect(machine.state).toBe('discontinued');
    expect(transition(machine, A()).to).toBe('discontinued');
    expect(transition(machine, { kind: 'resume', lotId: 'x' }).to).toBe('tightened');
  });
});

describe('normal → reduced (the switching score) and back', () => {
  it('Ac ≥ 2: +3 per lot accepted one AQL step tighter, so 10 such lots reach 30; approval then switches', () => {
    const { machine, steps } = runSwitching(Array.from({ length: 10 }, () => A()));
    expect(machine.score).toBe(30);
    expect(steps.at(-1)!.why).toContain('reduced inspection may be used');
    expect(transition(machine, { kind: 'approve-reduced', lotId: 'x' }).to).toBe('reduced');
  });
  it('Ac ≥ 2 and not accepted at the tighter AQL resets the score; so does a rejection', () => {
    const { machine } = runSwitching([A(), A(), lot('accepted', 2, false), A()]);
    expect(machine.score).toBe(3);
    expect(runSwitching([A(), A(), R()]).machine.score).toBe(0);
  });
  it('Ac 0 or 1: +2 per accepted lot, so 15 lots reach 30', () => {
    expect(runSwitching(Array.from({ length: 14 }, () => lot('accepted', 1, false))).machine.score).toBe(28);
    expect(runSwitching(Array.from({ length: 15 }, () => lot('accepted', 0, false))).machine.score).toBe(REDUCED_SCORE);
  });
  it('approval below 30 changes nothing, and says so', () => {
    const step = transition(START, { kind: 'approve-reduced', lotId: 'x' });
    expect(step.to).toBe('normal');
    expect(step.why).toContain('No switching rule');
  });
  it('reduced → normal on a rejected lot, or on a lot accepted between Ac and Re', () => {
    const reduced = { ...START, state: 'reduced' as const };
    expect(transition(reduced, A()).to).toBe('reduced');
    expect(transition(reduced, R()).to).toBe('normal');
    expect(transition(reduced, lot('accepted-return')).to).toBe('normal');
  });
});
