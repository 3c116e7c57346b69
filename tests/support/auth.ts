import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { POST as registerRoute } from "@/app/api/v1/auth/register/route";
import { POST as loginRoute } from "@/app/api/v1/auth/login/route";
import { apiRequest, call, json, nextTestIp } from "./http";

export const TEST_PASSWORD = "Tr0ub4dor&3x";

export interface TestAccount {
  id: string;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  /** The `name=value` of the session cookie set at registration. */
  cookie: string;
}

export function uniqueEmail(label = "user"): string {
  return `${label}-${randomBytes(5).toString("hex")}@example.com`;
}

export function cookieFrom(response: Response): string {
  const header = response.headers.get("set-cookie") ?? "";
  return header.split(";")[0] ?? "";
}

/** Registers through the real route (a distinct IP each time, so the registration limit never trips). */
export async function registerAccount(overrides: Partial<{ email: string; password: string; firstName: string; lastName: string }> = {}): Promise<TestAccount> {
  const body = { email: uniqueEmail(), password: TEST_PASSWORD, firstName: "Ada", lastName: "Lovelace", ...overrides };
  const response = await call(registerRoute, apiRequest("/api/v1/auth/register", { method: "POST", body, ip: nextTestIp() }));
  if (response.status !== 201) throw new Error(`register failed: ${response.status} ${await response.text()}`);
  const { data } = await json<{ data: { user: { id: string }; accessToken: string; refreshToken: string } }>(response);
  return { id: data.user.id, email: body.email, password: body.password, accessToken: data.accessToken, refreshToken: data.refreshToken, cookie: cookieFrom(response) };
}

export async function loginAccount(email: string, password: string, extra: { twoFactorCode?: string; userAgent?: string } = {}) {
  const headers: Record<string, string> = extra.userAgent ? { "user-agent": extra.userAgent } : {};
  return call(loginRoute, apiRequest("/api/v1/auth/login", { method: "POST", body: { email, password, twoFactorCode: extra.twoFactorCode }, ip: nextTestIp(), headers }));
}

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

export async function setRole(userId: string, role: "USER" | "ADMIN" | "SUPER_ADMIN") {
  await getDatabase().db.update(schema.users).set({ role }).where(eq(schema.users.id, userId));
}
