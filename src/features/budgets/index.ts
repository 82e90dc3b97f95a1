/** Public entry of budgets: limits on charged decisions, their arithmetic, and their pages. */
export { BudgetHeader } from './components/budget-header';
export { BudgetsPage } from './components/budgets-page';
export { type ChargeForecast } from '../../domain/budgets/forecast';
export { useChargeForecast, type ForecastState } from './hooks';
export { heldReason } from '../../domain/budgets/held-reason';
