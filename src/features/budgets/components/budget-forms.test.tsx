import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { outboxEntry } from '../../../test/outbox-entry';
import { heldReason } from '../../../domain/budgets/held-reason';
import { noticeText } from './budget-header';
import { HeldDecisions } from './held-decisions';
import { LimitsForm } from './limits-form';

describe('limits form', () => {
  it('names a limit it cannot read and saves nothing; saves exact micro-USD, blank meaning no limit', async () => {
    const onSave = vi.fn(async (_changes: object) => undefined);
    render(<LimitsForm name="Organization" limits={{ monthly: 2_000_000 }} spend={[{ period: 'daily', spentMicros: 34_000 }]} onSave={onSave} />);
    const daily = screen.getByRole('textbox', { name: 'Organization daily limit (USD)' });
    // Spent reads to the cent; the exact amount is its hover, and is read out with it.
    // (jsdom's accessible-name library drops the space between the two spans a browser keeps.)
    expect(daily).toHaveAccessibleDescription(/^Spent today \(your time\): \$0\.03 ?\(exactly \$0\.034000\)$/);
    expect(screen.getByTitle('$0.034000')).toHaveTextContent('$0.03');
    expect(screen.getByRole('textbox', { name: 'Organization monthly limit (USD)' })).toHaveValue('2');

    await userEvent.type(daily, '0.05.1');
    await userEvent.click(screen.getByRole('button', { name: 'Save organization limits' }));
    expect(daily).toHaveAccessibleDescription(/Enter an amount in USD/);
    expect(onSave).not.toHaveBeenCalled();

    await userEvent.clear(daily);
    await userEvent.type(daily, '0.05');
    await userEvent.clear(screen.getByRole('textbox', { name: 'Organization monthly limit (USD)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save organization limits' }));
    expect(onSave).toHaveBeenCalledWith({ daily: 50_000, monthly: undefined });
    expect(Object.keys(onSave.mock.calls[0]![0]).sort()).toEqual(['daily', 'monthly']);
    expect(await screen.findByRole('status')).toHaveTextContent('Saved the organization’s limits.');
  });

  it('keeps an edit in progress when another tab saves, follows the fields not edited, and saves only the edit', async () => {
    const onSave = vi.fn(async (_changes: object) => undefined);
    const form = (limits: { daily?: number; monthly?: number }) => <LimitsForm name="Organization" limits={limits} spend={[]} onSave={onSave} />;
    const { rerender } = render(form({ daily: 50_000 }));
    const daily = screen.getByRole('textbox', { name: 'Organization daily limit (USD)' });
    const monthly = screen.getByRole('textbox', { name: 'Organization monthly limit (USD)' });
    await userEvent.clear(daily);
    await userEvent.type(daily, '0.08');

    // Another tab sets a monthly limit and a different daily one meanwhile.
    rerender(form({ daily: 60_000, monthly: 3_000_000 }));
    expect(daily).toHaveValue('0.08');
    expect(monthly).toHaveValue('3');

    await userEvent.click(screen.getByRole('button', { name: 'Save organization limits' }));
    expect(onSave).toHaveBeenCalledOnce();
    expect(onSave.mock.calls[0]![0]).toStrictEqual({ daily: 80_000 });
  });
});

describe('held decisions', () => {
  const held = (itemId: string) =>
    outboxEntry({
      itemId,
      kind: 'simulated',
      state: 'held-budget',
      priceMicros: 17_000,
      heldBy: { level: 'subscription', period: 'daily', limitMicros: 50_000, spentMicros: 34_000 },
    });

  it('lists them with their amounts, and releases this tab’s after one confirmation naming the count and total', async () => {
    const onRelease = vi.fn();
    const onDiscard = vi.fn();
    const own = [held('i3'), held('i4')];
    render(<HeldDecisions own={own} others={[held('i5')]} onRelease={onRelease} onDiscard={onDiscard} />);
    const list = screen.getByRole('list', { name: 'Held by budget' });
    expect(list).toHaveTextContent(/adopt item i3.*\$0\.017.*held by budget: sim daily limit \$0\.05 \(spent \$0\.034\)/);
    expect(list).toHaveTextContent('in another open tab: release it there');

    await userEvent.click(screen.getByRole('button', { name: 'Release 2 held decisions ($0.034)' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Release 2 held decisions?' });
    expect(dialog).toHaveTextContent('will charge $0.034');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onRelease).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Release 2 held decisions ($0.034)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send and pay $0.034' }));
    expect(onRelease).toHaveBeenCalledWith(own.map((e) => e.id));
    expect(onDiscard).not.toHaveBeenCalled();
  });

  it('releases exactly what the confirmation named, though more are held while it is open', async () => {
    const onRelease = vi.fn();
    const own = [held('i3'), held('i4')];
    const { rerender } = render(<HeldDecisions own={own} others={[]} onRelease={onRelease} onDiscard={vi.fn()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Release 2 held decisions ($0.034)' }));
    // A bulk run goes on in this tab: a third adopt is held while the user reads the total.
    rerender(<HeldDecisions own={[...own, held('i5')]} others={[]} onRelease={onRelease} onDiscard={vi.fn()} />);
    const dialog = screen.getByRole('alertdialog', { name: 'Release 2 held decisions?' });
    expect(dialog).toHaveTextContent('will charge $0.034');
    await userEvent.click(screen.getByRole('button', { name: 'Send and pay $0.034' }));
    expect(onRelease).toHaveBeenCalledWith(own.map((e) => e.id));
  });

  it('says "over" for what was spent past the exact range (a receipt the service got wrong), never a made-up exact amount', () => {
    const entry = held('i9');
    const over = { ...entry, heldBy: { ...entry.heldBy!, spentMicros: Number.MAX_SAFE_INTEGER } };
    expect(heldReason(over)).toBe('sim daily limit $0.05 (spent over $9,007,199,254)');
    expect(heldReason(entry)).toBe('sim daily limit $0.05 (spent $0.034)');
  });

  it('names the subscription and cuts the item’s UUID short, with both whole IDs on hover', () => {
    const item = '3b1db2ed-860c-4f71-bc64-41ec0b1e43d1';
    render(<HeldDecisions own={[held(item)]} others={[]} names={new Map([['sim', 'Retail shelf audits']])} onRelease={vi.fn()} onDiscard={vi.fn()} />);
    const list = screen.getByRole('list', { name: 'Held by budget' });
    expect(list).toHaveTextContent(/adopt item 3b1db2ed… \(Retail shelf audits\).*held by budget: Retail shelf audits daily limit \$0\.05/);
    expect(list).not.toHaveTextContent(item);
    expect(list).not.toHaveTextContent('(sim)');
    expect(screen.getByTitle(`Item ${item}`)).toHaveTextContent('3b1db2ed…');
    expect(screen.getByTitle('Subscription sim')).toHaveTextContent('Retail shelf audits');
  });

  it('names a subscription’s limit by the name it is given, the organization’s as the organization', () => {
    const entry = held('i9');
    expect(heldReason(entry, (id) => (id === 'sim' ? 'Retail shelf audits' : id))).toBe('Retail shelf audits daily limit $0.05 (spent $0.034)');
    const org = { ...entry, heldBy: { ...entry.heldBy!, level: 'organization' as const } };
    expect(heldReason(org, () => 'Retail shelf audits')).toBe('organization daily limit $0.05 (spent $0.034)');
  });

  it('discards this tab’s held decisions after a confirmation', async () => {
    const onRelease = vi.fn();
    const onDiscard = vi.fn();
    const own = [held('i3')];
    render(<HeldDecisions own={own} others={[]} onRelease={onRelease} onDiscard={onDiscard} />);
    await userEvent.click(screen.getByRole('button', { name: 'Discard 1 held decision…' }));
    expect(screen.getByRole('alertdialog', { name: 'Discard 1 held decision?' })).toHaveTextContent('charge nothing');
    await userEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect(onDiscard).toHaveBeenCalledWith(['i3']);
    expect(onRelease).not.toHaveBeenCalled();
  });
});

describe('a budget threshold’s notice', () => {
  it('names the subscription as Budgets does (its label, or its ID when it has none), and the organization as such', () => {
    const connection = { subscriptions: [{ id: 'sub_sim_retail', kind: 'simulated' as const, label: 'Retail shelf audits' }] };
    const crossed = (subscriptionId?: string) => ({
      key: 'k',
      ref: subscriptionId
        ? { level: 'subscription' as const, subscriptionId, period: 'daily' as const, limitMicros: 10_000 }
        : { level: 'organization' as const, period: 'daily' as const, limitMicros: 10_000 },
      percent: 100 as const,
      spentMicros: 10_000,
    });
    expect(noticeText(crossed('sub_sim_retail'), connection)).toBe(
      'Budget: 100% of the Retail shelf audits daily limit reached — $0.01 of $0.01 today (your time). Further charged adopts are held.',
    );
    expect(noticeText(crossed('sub_other'), connection)).toMatch(/^Budget: 100% of the sub_other daily limit reached/);
    expect(noticeText(crossed(), connection)).toMatch(/^Budget: 100% of the organization daily limit reached/);
    // Two subscriptions of one label are told apart by ID, as Budgets heads their limits.
    const twins = {
      subscriptions: [
        { id: 'sub_sim_retail', kind: 'simulated' as const, label: 'Retail' },
        { id: 'sub_sim_retail_eu', kind: 'simulated' as const, label: 'Retail' },
      ],
    };
    expect(noticeText(crossed('sub_sim_retail_eu'), twins)).toMatch(/^Budget: 100% of the Retail \(sub_sim_retail_eu\) daily limit reached/);
  });
});
