import { stands } from './entry-changes';
import { DecisionCommands } from './decision-commands';
import { teamDecisionChanges, type TeamDecisionNews } from './team-decisions';
import { settleTeamHolds, type TeamHold } from './team-holds';
import { isHubOwned, phaseOf } from './transitions';

/**
 * What a team hub says of decisions, applied to the outbox: its holds (released, delivered,
 * dropped), teammates' decisions from its feed, and items that arrive already decided. The hub
 * owns these decisions, so nothing here sends: rows are rewritten, items' open flags follow, and
 * every tab is told. The engine (engine.ts) loads scopes and syncs tabs for it.
 */
export abstract class TeamCommands extends DecisionCommands {
  /** Whether this tab shows (has loaded or is loading) a scope. */
  protected abstract shows(scope: string): boolean;
  /** Reads the scope's rows again and takes over what closed tabs left (engine.ts). */
  abstract sync(scope: string): Promise<void>;

  /** Whether any decision of a scope (this tab's or another's) is the team hub's: held there, or accepted to send. */
  hasHubOwned(scope: string): boolean {
    const own = this.own.get(scope);
    if (own) for (const e of own.values()) if (isHubOwned(e.state)) return true;
    return this.othersOf(scope).some((e) => isHubOwned(e.state));
  }

  /**
   * Records what a team hub's holds say of the decisions it has (team-holds.ts): released and
   * delivered → confirmed; released and queued there → accepted by the hub; dropped → dropped on
   * the hub, its item undecided again. Rows are rewritten in one transaction whoever owns them (no
   * tab sends these), then read again here and announced to every tab. Returns how many changed.
   */
  async settleTeamHolds(scope: string, holds: readonly TeamHold[]): Promise<number> {
    if (!this.shows(scope)) return 0;
    const now = this.now();
    const changed = await this.deps.store.settle(scope, (row) => (this.writes.has(row.id) ? row : (settleTeamHolds([row], holds, now)[0] ?? row)));
    if (changed.length === 0) return 0;
    // Dropped on the hub: its item is undecided again (as a discard leaves it), unless a decision stands on it (a teammate's).
    this.reopenAfterWrite(
      scope,
      changed.filter((e) => phaseOf(e.state) === 'discarded'),
    );
    await this.sync(scope);
    this.deps.tabs.announce(scope);
    return changed.length;
  }

  /**
   * Records teammates' decisions from the hub's feed (team-decisions.ts): a `decided-team` entry
   * per item decided by the team (not by this browser), its item no longer undecided; removed,
   * and the item undecided again, when the hub says so. Written in one transaction, then read
   * again here and announced to every tab. Returns how many entries changed.
   */
  async applyTeamDecisions(scope: string, news: readonly TeamDecisionNews[], connectionId = ''): Promise<number> {
    await this.load(scope);
    if (!this.shows(scope) || news.length === 0) return 0;
    // What stands on an item, read when asked: after the write below, this tab's memory and the
    // other tabs' entries may hold decisions recorded while it ran.
    const onItem = (itemId: string) => [...(this.own.get(scope)?.onItem(itemId) ?? []), ...this.othersOf(scope).filter((e) => e.itemId === itemId)];
    const { puts, deletes } = teamDecisionChanges(scope, news, onItem, connectionId);
    if (puts.length === 0 && deletes.length === 0) return 0;
    await this.deps.store.write(
      puts,
      deletes.map((e) => e.id),
    );
    this.markOpen(scope, puts, 0);
    // Undecided again: open, unless another decision of this browser stands on it (in memory, or
    // stored when the flag is written: one recorded while this was written).
    this.markOpen(
      scope,
      deletes.filter((e) => !onItem(e.itemId).some((o) => o.id !== e.id && stands(o))),
      'unless-decided',
    );
    await this.sync(scope);
    this.deps.tabs.announce(scope);
    return puts.length + deletes.length;
  }

  /**
   * Items just written to the store (the team inbox's sync): those a decision of this browser or a
   * teammate's already stands on are not open. The team's decisions feed can bring an item's
   * decision before the item itself (a decisions-only round racing a teammate's pull), and an item
   * is written open; this closes it. Returns how many it closed.
   */
  async closeDecided(scope: string, subscriptionId: string, itemIds: readonly string[]): Promise<number> {
    await this.load(scope);
    if (!this.shows(scope) || itemIds.length === 0) return 0;
    const wanted = new Set(itemIds);
    const own = this.own.get(scope);
    const standing = [...itemIds.flatMap((id) => own?.onItem(id) ?? []), ...this.othersOf(scope).filter((e) => wanted.has(e.itemId))].filter(
      (e) => e.subscriptionId === subscriptionId && stands(e),
    );
    this.markOpen(scope, standing, 0);
    return standing.length;
  }
}
