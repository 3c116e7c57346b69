export { RETENTION_BATCH_SIZE, RETENTION_RUN_BUDGET_MS, ROLLUP_HOURS_KEPT_DAYS, retentionSteps, runRetention, type RetentionOptions, type RetentionReport, type RetentionStepReport } from "./run";
export { daysBefore, monthsBefore, retentionSettings, type RetentionSettings } from "./settings";
