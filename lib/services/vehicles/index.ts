/**
 * The vehicles domain as routes, server actions, pages and other domains use it: its ctx-taking verbs,
 * their records and request schemas, and the VIN's rules and claims.
 */
export { clearStolenFlag, clearStolenInput, stolenClearedSchema, type ClearStolenInput, type StolenCleared } from "./clear-stolen";
export { reportStolenInput, type ReportStolenInput, reportStolenResultSchema, reportVehicleStolen } from "./report-stolen";
export { verifyVin, vinCheckSchema } from "./verify-vin";
export { canonicalVin, VIN_INPUT_MAX, VIN_MESSAGE, VIN_PATTERN } from "./schemas";
export { setTagStatus } from "./tag-status";
export { assertVinClaimable, VIN_TAKEN } from "./vin-claims";
