export { RETENTION_BATCH_SIZE, RETENTION_RUN_BUDGET_MS, retentionSteps, runRetention, type RetentionOptions, type RetentionReport, type RetentionStepReport } from "./run";
export { daysBefore, monthsBefore, retentionSettings, type RetentionSettings } from "./settings";
