import { generate } from "otplib";

/**
 * The TOTP code an authenticator app would show for `secret` (RFC 6238: SHA-1, 6 digits, 30 s),
 * `stepsAhead` time steps from now. The server accepts one step either side and each step once, so a
 * sign-in right after set-up uses the next step's code.
 */
export function totpCode(secret: string, stepsAhead = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30, period: 30, digits: 6, algorithm: "sha1" });
}
