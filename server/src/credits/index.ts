/** The credits ledger, the monthly budget and who caused a request. */
export type { BudgetService } from './budget.service';
export { AUTOMATIC, editorOrigin, type Origin, personName, publishOrigin, type RequestState } from './domain/cause';
export type { PreviewAccount } from './domain/preview';
export type { LedgerService, NarratedTarget } from './ledger.service';
