/**
 * The users domain: suspension, the one way an account is suspended or reinstated (by an admin's change
 * to the user, or by a report's SUSPEND_USER action). Signing in, sessions and the user row's own fields
 * are the auth domain's.
 */
export { assertMaySuspend, type SuspensionOptions, suspendUser, unsuspendUser } from "./suspension";
