/** Public entry of budgets: limits on charged decisions, their arithmetic, and their pages. */
export { BudgetHeader } from './components/budget-header';
export { BudgetsPage } from './components/budgets-page';
export { type ChargeForecast } from '../../domain/budgets/forecast';
export { useChargeForecast, type ForecastState } from './hooks';
export { heldReason } from './components/held-decisions';
export { provideDecisions } from './decisions';
export { BUDGETS_MARKER, BUDGETS_SETTING, readBudgetsDocument } from '../../domain/budgets/budgets-document';
export { hasLimits, NO_BUDGETS, type Budgets, type Period } from '../../domain/budgets/model';
export { decideCharges, type SpendReceipt } from '../../domain/budgets/spend';
export { changeBudgets, onBudgetsChange } from '../../domain/budgets/store';
export { CLOCK_SETTING, keptTime, keptValue, trustedTime } from '../../domain/budgets/trusted-clock';
