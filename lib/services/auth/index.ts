/**
 * The auth domain as routes, server actions and pages use it: its ctx-taking verbs, their records and
 * request schemas. Code inside lib/services imports the files themselves.
 */
export { deleteMe, getMe, updateMe } from "./account";
export { exportApiKeys, exportSessions } from "./export";
export { type ApiKeyView, createApiKey, listApiKeys, revokeApiKey } from "./api-keys";
export { login } from "./login";
export { changePassword, forgotPassword, resetPassword } from "./password";
export { createAccount, register } from "./register";
export { accountDetailsInput, changePasswordInput, createApiKeyInput, deleteMeInput, disableTwoFactorInput, emailSchema, forgotPasswordInput, messageSchema, type PublicUser, registerInput, resetPasswordInput, tokenPairSchema, updateMeInput, userSchema, verifyEmailInput, verifyTwoFactorInput } from "./schemas";
export { type ClientInfo, listSessions, logout, refreshSession, revokeOtherSessions, revokeSession, type SessionView } from "./sessions";
export { disableTwoFactor, enableTwoFactor, verifyTwoFactor } from "./two-factor";
export { ALREADY_CONFIRMED_MESSAGE, confirmEmailFromLink, emailLinkAlreadyConfirmed, sendVerification, verifyEmail } from "./verification";
export { authenticateApiKey, type CallerUser, findLiveSession, findUserByEmail, getUserById, isApiKeyOfSuspendedUser, isUserSuspended, removeTwoFactor, retireUserTokens, revokeSessionById, revokeUserApiKeys, revokeUserSessions } from "./queries";
export { toPublicUser } from "./users";
export { credentialStillValid } from "./credentials";
