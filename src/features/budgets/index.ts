/** Public entry of budgets: limits on charged decisions, their arithmetic, and their pages. */
export { BUDGETS_SETTING, hasLimits, NO_BUDGETS, parseBudgets, type Budgets, type HeldByLevel, type Period } from './model';
export { decideCharges, spentAgainst, type SpendDecision, type SpendReceipt, type Verdict } from './spend';
export { changeBudgets, onBudgetsChange, readBudgets } from './store';
