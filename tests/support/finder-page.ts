import { GET, POST } from "@/app/(finder)/t/[encryptedId]/route";
import { apiRequest, call } from "./http";

/** GET /t/:encryptedId as a phone's browser asks for it (English unless told), through the real route handler. */
export function finderPage(encryptedId: string, init: { ip?: string; headers?: Record<string, string>; method?: "GET" | "HEAD" } = {}): Promise<Response> {
  const headers = { "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1", "accept-language": "en", ...init.headers };
  return call(GET as never, apiRequest(pagePath(encryptedId), { ip: init.ip, headers, method: init.method ?? "GET" }), { encryptedId });
}

/** The page's contact form posted without JavaScript: a urlencoded POST to the page's own address. */
export function finderContactPost(encryptedId: string, fields: Record<string, string>, init: { ip?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  // A browser always sends Host; the page compares a post's Origin with it (lib/http/cross-origin.ts).
  const headers = { host: "localhost:3000", "content-type": "application/x-www-form-urlencoded", "accept-language": "en", "user-agent": "Mozilla/5.0 (iPhone) Mobile Safari/604.1", ...init.headers };
  return call(POST as never, apiRequest(`/t/${encodeURIComponent(encryptedId)}`, { method: "POST", ip: init.ip, headers, rawBody: new URLSearchParams(fields).toString() }), { encryptedId });
}

/** The page's address; a value no URL can carry (a lone surrogate) reaches the handler as its param alone. */
function pagePath(encryptedId: string): string {
  try {
    return `/t/${encodeURIComponent(encryptedId)}`;
  } catch {
    return "/t/unencodable";
  }
}
