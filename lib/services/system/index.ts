/**
 * The system domain as routes, server actions and pages use it: its ctx-taking verbs, their records and
 * request schemas. Code inside lib/services imports the files themselves.
 */
export { readDevMailbox } from "./dev-mailbox";
export { checkHealth } from "./health";
export { seedDatabase } from "./seed";
