import { decode, encode } from "next-auth/jwt";
import { env } from "@/lib/env";
import { authSecret } from "@/lib/secrets";

/**
 * The browser session is next-auth's JWT cookie, whichever way it was made (web sign-in, or
 * POST /auth/login and /auth/register, which mint the same cookie). It carries `sub` (user) and `sid`
 * (our session row), and is only as good as that row: revoking the session signs the cookie out.
 */
export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

/** next-auth's `__Secure-` prefix over https; we pin next-auth to the same choice (useSecureCookies). */
export function secureCookies(): boolean {
  return new URL(env.APP_URL).protocol === "https:";
}

export function sessionCookieName(): string {
  return secureCookies() ? "__Secure-authjs.session-token" : "authjs.session-token";
}

export interface SessionCookieClaims {
  userId: string;
  sessionId: string;
  email?: string;
  name?: string;
}

export async function encodeSessionCookie(claims: SessionCookieClaims): Promise<string> {
  return encode({
    token: { sub: claims.userId, sid: claims.sessionId, email: claims.email, name: claims.name },
    secret: authSecret(),
    salt: sessionCookieName(),
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
}

export async function decodeSessionCookie(value: string): Promise<{ userId: string; sessionId: string } | null> {
  try {
    const token = await decode({ token: value, secret: authSecret(), salt: sessionCookieName() });
    if (!token || typeof token.sub !== "string" || typeof token.sid !== "string") return null;
    return { userId: token.sub, sessionId: token.sid };
  } catch {
    return null;
  }
}

function attributes(maxAge: number): string {
  return ["Path=/", "HttpOnly", "SameSite=Lax", `Max-Age=${maxAge}`, ...(secureCookies() ? ["Secure"] : [])].join("; ");
}

export function sessionCookieHeader(value: string): string {
  return `${sessionCookieName()}=${value}; ${attributes(SESSION_MAX_AGE_SECONDS)}`;
}

export function clearSessionCookieHeader(): string {
  return `${sessionCookieName()}=; ${attributes(0)}`;
}

/** The session cookie's value from a Cookie header (next-auth may chunk large tokens as `.0`, `.1`…). */
export function readSessionCookie(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  const name = sessionCookieName();
  const cookies = new Map<string, string>();
  for (const part of cookieHeader.split(";")) {
    const index = part.indexOf("=");
    if (index > 0) cookies.set(part.slice(0, index).trim(), part.slice(index + 1).trim());
  }
  if (cookies.has(name)) return cookies.get(name) ?? null;
  const chunks: string[] = [];
  for (let i = 0; cookies.has(`${name}.${i}`); i++) chunks.push(cookies.get(`${name}.${i}`)!);
  return chunks.length ? chunks.join("") : null;
}
