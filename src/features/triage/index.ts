/** Public entry of triage's hooks: a subscription's rows joined with the outbox, and its text index (the engine is src/domain/triage). */
export { useTextIndex, useTriageRows } from './use-triage-rows';
