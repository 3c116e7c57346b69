import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import type { Thread } from "@/db/schema";
import { POST as contactRoute } from "@/app/api/v1/scan/[encryptedId]/contact/route";
import { GET as finderThreadRoute } from "@/app/api/v1/scan/thread/[token]/route";
import { POST as finderReplyRoute } from "@/app/api/v1/scan/thread/[token]/reply/route";
import { GET as listRoute } from "@/app/api/v1/messages/route";
import { GET as getRoute, PATCH as statusRoute } from "@/app/api/v1/messages/[threadId]/route";
import { POST as ownerReplyRoute } from "@/app/api/v1/messages/[threadId]/reply/route";
import { PATCH as readRoute } from "@/app/api/v1/messages/[threadId]/read/route";
import type { ContactResult, FinderThread, OwnerThread, ThreadListItem, ThreadMessageRecord } from "@/lib/services/messages";
import { threadTokenHash } from "@/lib/services/messages/thread-token";
import { bearer, type TestAccount } from "./auth";
import { apiRequest, call, json, nextTestIp } from "./http";

export type ErrorBody = { success: false; error: { code: string; message: string; details?: Record<string, unknown> } };

export interface ContactOptions {
  headers?: Record<string, string>;
  ip?: string;
}

/** POST /scan/:encryptedId/contact: the raw Response (a fresh IP each time, so the contact limit never trips). */
export function contactRequest(encryptedId: string, body: unknown, options: ContactOptions = {}): Promise<Response> {
  return call(contactRoute, apiRequest(`/api/v1/scan/${encodeURIComponent(encryptedId)}/contact`, { method: "POST", body, headers: options.headers, ip: options.ip ?? nextTestIp() }), { encryptedId });
}

/** Contacts the owner and answers the 201's data, failing on anything else. */
export async function contactOwnerOf(encryptedId: string, body: { message: string; finderName?: string; finderEmail?: string } = { message: "Hi! I found your backpack." }, options: ContactOptions = {}): Promise<ContactResult> {
  const response = await contactRequest(encryptedId, body, options);
  if (response.status !== 201) throw new Error(`contact failed: ${response.status} ${await response.text()}`);
  return (await json<{ data: ContactResult }>(response)).data;
}

export function finderThreadRequest(token: string, headers?: Record<string, string>): Promise<Response> {
  return call(finderThreadRoute, apiRequest(`/api/v1/scan/thread/${encodeURIComponent(token)}`, { headers, ip: nextTestIp() }), { token });
}

export async function finderThread(token: string): Promise<FinderThread> {
  const response = await finderThreadRequest(token);
  if (response.status !== 200) throw new Error(`thread failed: ${response.status} ${await response.text()}`);
  return (await json<{ data: FinderThread }>(response)).data;
}

export function finderReplyRequest(token: string, body: unknown, options: ContactOptions = {}): Promise<Response> {
  return call(finderReplyRoute, apiRequest(`/api/v1/scan/thread/${encodeURIComponent(token)}/reply`, { method: "POST", body, headers: options.headers, ip: options.ip ?? nextTestIp() }), { token });
}

export function listRequest(account: Pick<TestAccount, "accessToken">, query = ""): Promise<Response> {
  return call(listRoute, apiRequest(`/api/v1/messages${query}`, { headers: bearer(account.accessToken) }));
}

export async function inbox(account: Pick<TestAccount, "accessToken">, query = ""): Promise<{ data: ThreadListItem[]; meta: { total: number; page: number; totalPages: number } }> {
  const response = await listRequest(account, query);
  if (response.status !== 200) throw new Error(`list failed: ${response.status} ${await response.text()}`);
  return json(response);
}

export function getRequest(account: Pick<TestAccount, "accessToken"> | null, threadId: string): Promise<Response> {
  return call(getRoute, apiRequest(`/api/v1/messages/${threadId}`, { headers: account ? bearer(account.accessToken) : {} }), { threadId });
}

export async function ownerThread(account: Pick<TestAccount, "accessToken">, threadId: string): Promise<OwnerThread> {
  const response = await getRequest(account, threadId);
  if (response.status !== 200) throw new Error(`get failed: ${response.status} ${await response.text()}`);
  return (await json<{ data: OwnerThread }>(response)).data;
}

export function ownerReplyRequest(account: Pick<TestAccount, "accessToken"> | null, threadId: string, body: unknown): Promise<Response> {
  return call(ownerReplyRoute, apiRequest(`/api/v1/messages/${threadId}/reply`, { method: "POST", body, headers: account ? bearer(account.accessToken) : {} }), { threadId });
}

export async function ownerReply(account: Pick<TestAccount, "accessToken">, threadId: string, content: string): Promise<ThreadMessageRecord> {
  const response = await ownerReplyRequest(account, threadId, { content });
  if (response.status !== 201) throw new Error(`reply failed: ${response.status} ${await response.text()}`);
  return (await json<{ data: ThreadMessageRecord }>(response)).data;
}

export function readRequest(account: Pick<TestAccount, "accessToken"> | null, threadId: string): Promise<Response> {
  return call(readRoute, apiRequest(`/api/v1/messages/${threadId}/read`, { method: "PATCH", headers: account ? bearer(account.accessToken) : {} }), { threadId });
}

export function statusRequest(account: Pick<TestAccount, "accessToken"> | null, threadId: string, status: unknown): Promise<Response> {
  return call(statusRoute, apiRequest(`/api/v1/messages/${threadId}`, { method: "PATCH", body: { status }, headers: account ? bearer(account.accessToken) : {} }), { threadId });
}

/** The stored thread a token opens (test inspection). */
export async function threadRowByToken(token: string): Promise<Thread | undefined> {
  const [row] = await getDatabase().db.select().from(schema.threads).where(eq(schema.threads.tokenHash, threadTokenHash(token)));
  return row;
}

export async function threadRow(threadId: string): Promise<Thread | undefined> {
  const [row] = await getDatabase().db.select().from(schema.threads).where(eq(schema.threads.id, threadId));
  return row;
}
