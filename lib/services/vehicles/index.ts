/**
 * The vehicles domain as routes, server actions and pages use it: its ctx-taking verbs, their records and
 * request schemas. Code inside lib/services imports the files themselves.
 */
export { reportVehicleStolen } from "./report-stolen";
export { verifyVin } from "./verify-vin";
