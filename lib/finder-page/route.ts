import { getDatabase } from "@/db/client";
import { REQUEST_DATABASE_BUDGET_MS, withDatabaseBudget } from "@/db/availability";
import { resolveCaller } from "@/lib/http/auth";
import { readBodyText } from "@/lib/http/body";
import { crossOriginRefusal, postFromForeignOrigin } from "@/lib/http/cross-origin";
import { clientIp } from "@/lib/http/client-ip";
import { endpointRateLimits } from "@/lib/http/endpoint";
import { finderThreadEndpoints } from "@/lib/http/endpoints/finder-threads";
import { scanEndpoints } from "@/lib/http/endpoints/scans";
import { toDomainError } from "@/lib/http/errors";
import { requestIdFrom } from "@/lib/http/request-id";
import { actorFor } from "@/lib/http/route";
import { visitorFrom } from "@/lib/http/visitor";
import { negotiateLocale } from "@/lib/i18n/locales";
import { invalidContactState } from "@/lib/forms/contact-form-errors";
import { formInput } from "@/lib/forms/form-input";
import { formText, idleFormState, type FormState } from "@/lib/forms/form-state";
import { log, describeError } from "@/lib/log";
import { observeRequest, secondsSince } from "@/lib/metrics/registry";
import { checkRateLimits } from "@/lib/ratelimit";
import type { ServiceContext } from "@/lib/services/context";
import { ForbiddenError, NotFoundError, PayloadTooLargeError, RateLimitError, UnsupportedMediaTypeError } from "@/lib/services/errors";
import { peekScanView, scanTag } from "@/lib/services/finder";
import { contactOwner, contactOwnerInput } from "@/lib/services/messages";
import { encryptedIdParams, type PublicScanView } from "@/lib/services/scans";
import { FINDER_PAGE_CSP, finderDocument } from "./document";
import { html } from "./html";
import { wordsFor, type FinderWords } from "./messages";
import { pageBytes, RenderedPages, type PageBytes } from "./rendered-pages";
import { noticeCard, tagPageBody } from "./tag-page";

/** The route's name in metrics, by template (one series, not one per tag). */
const ROUTE = "/t/{encryptedId}";
/** The contact form's three fields at their limits, percent-encoded, with room to spare. */
const CONTACT_BODY_LIMIT_BYTES = 64 * 1024;

const pages = new RenderedPages();

type Outcome = { status: number; page: PageBytes; headers?: Record<string, string> };

function respond(request: Request, requestId: string, startedAt: number, outcome: Outcome): Response {
  // Content-Type is also set for this path in next.config.ts, where a plain string lets `next start` gzip it.
  const headers = new Headers({
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": FINDER_PAGE_CSP,
    // Every view is a scan the server must see: nothing may answer it from a cache on the way.
    "Cache-Control": "private, no-store",
    Vary: "Accept-Language, Cookie",
    "X-Request-Id": requestId,
    ...outcome.headers,
  });
  observeRequest(ROUTE, request.method, outcome.status, secondsSince(startedAt));
  return new Response(request.method === "HEAD" ? null : outcome.page, { status: outcome.status, headers });
}

/** A notice page (no tag data): one per kind and language, held like the tag pages. */
function notice(words: FinderWords, kind: "tooMany" | "notFound" | "unowned" | "unavailable"): PageBytes {
  return pages.get(`notice\u0000${kind}\u0000${words.locale}`, () => {
    const { t } = words;
    const body =
      kind === "tooMany"
        ? noticeCard(t("tooManyHeading"), html`<p>${t("tooManyBody")}</p>`)
        : kind === "unowned"
          ? noticeCard(t("unownedHeading"), html`<p>${t("unownedBody")}</p>`)
          : kind === "unavailable"
            ? noticeCard(t("unavailableHeading"), html`<p>${t("unavailableBody")}</p>`)
            : noticeCard(t("notFoundHeading"), html`<p>${t("notFoundBody")}</p><p><a href="/found" class="btn-primary">${t("typeCode")}</a></p>`);
    return finderDocument(words, body);
  });
}

/** The page of a tag's view, rendered once per language and content (rendered-pages.ts). */
function tagPage(words: FinderWords, view: PublicScanView, encryptedId: string): PageBytes {
  if (view.status === "PENDING_SETUP") return notice(words, "unowned");
  return pages.get(`tag\u0000${words.locale}\u0000${encryptedId}\u0000${JSON.stringify(view)}`, () => {
    const { body, locationScript } = tagPageBody(words, view, encryptedId, idleFormState);
    return finderDocument(words, body, { locationScript });
  });
}

/**
 * Who is asking: the signed-in user when the request carries a live session cookie (so the owner's own
 * visit is recognised, and a signed-in finder's conversation carries their account), else the anonymous
 * public caller, as the API's optional-auth endpoints decide it (lib/http/auth.ts). A page shows no
 * credential error: a stale, foreign or suspended credential simply reads as anonymous, except that
 * `strict` (the form's post) lets a cookie's refusal through, as the API refuses it.
 */
async function pageContext(request: Request, ip: string, strict: boolean): Promise<ServiceContext> {
  const db = getDatabase().db;
  const anonymous: ServiceContext = { actor: { kind: "public", ip }, db };
  if (!request.headers.get("cookie")) return anonymous;
  const cookieOnly = new Request(request.url, { method: request.method, headers: { cookie: request.headers.get("cookie")!, ...(request.headers.get("origin") ? { origin: request.headers.get("origin")! } : {}) } });
  try {
    const caller = await resolveCaller({ req: cookieOnly, db, ip });
    if (caller.kind !== "user") return anonymous;
    return { actor: actorFor(caller, ip), db, user: caller.user };
  } catch (error) {
    if (strict && error instanceof ForbiddenError) throw error;
    return anonymous;
  }
}

function validTagAddress(encryptedId: string): boolean {
  return encryptedIdParams.safeParse({ encryptedId }).success;
}

/**
 * GET /t/:encryptedId: counts against the scan API's per-IP limit, records the scan (scanTag: classified,
 * clone-checked, the owner told of a real one) and answers the tag's page from the cache. Unknown tag 404,
 * rate limited 429 (Retry-After), database unavailable 503: each a page in the finder's language.
 */
export async function serveFinderPage(request: Request, encryptedId: string): Promise<Response> {
  const startedAt = performance.now();
  const requestId = requestIdFrom(request.headers.get("x-request-id"));
  const words = wordsFor(negotiateLocale(request.headers.get("accept-language")));
  const ip = clientIp(request.headers);
  try {
    const outcome = await withDatabaseBudget(
      REQUEST_DATABASE_BUDGET_MS,
      async (): Promise<Outcome> => {
        const limit = await checkRateLimits(endpointRateLimits(scanEndpoints.scan), { ip });
        if (!limit.allowed) return { status: 429, page: notice(words, "tooMany"), headers: { "Retry-After": String(Math.max(1, limit.retryAfter)) } };
        if (!validTagAddress(encryptedId)) throw new NotFoundError();
        const ctx = await pageContext(request, ip, false);
        const view = await scanTag(ctx, encryptedId, visitorFrom(request.headers, request.method, ip));
        return { status: 200, page: tagPage(words, view, encryptedId) };
      },
      request.signal,
    );
    return respond(request, requestId, startedAt, outcome);
  } catch (thrown) {
    return respond(request, requestId, startedAt, failure(thrown, words, requestId));
  }
}

function failure(thrown: unknown, words: FinderWords, requestId: string): Outcome {
  const error = toDomainError(thrown);
  if (error instanceof NotFoundError) return { status: 404, page: notice(words, "notFound") };
  if (error.code === "SERVICE_UNAVAILABLE") return { status: 503, page: notice(words, "unavailable"), headers: { "Retry-After": "5" } };
  log.error("finder page failed", { requestId, ...describeError(thrown) });
  return { status: 500, page: notice(words, "unavailable") };
}

const CONTACT_FIELDS = ["message", "finderName", "finderEmail"] as const;

async function readContactForm(request: Request): Promise<FormData> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") throw new UnsupportedMediaTypeError("application/x-www-form-urlencoded", request.headers.get("content-type"));
  const form = new FormData();
  for (const [name, value] of new URLSearchParams(await readBodyText(request, CONTACT_BODY_LIMIT_BYTES))) form.append(name, value);
  return form;
}

/**
 * POST /t/:encryptedId: the page's contact form, without JavaScript. The same schema, limits (one budget
 * with POST /api/v1/scan/:encryptedId/contact) and service as the API; a new conversation answers 303 to
 * its page, anything else the tag's page again with the messages and the values (400, 403, 404, 413,
 * 415, 429); one from another site 403 before anything is read. The post is not a scan: the page it
 * answers with is read, not recorded.
 */
export async function submitFinderContact(request: Request, encryptedId: string): Promise<Response> {
  // The proxy does not see this path (proxy.ts): the same rule as for server actions, here.
  if (postFromForeignOrigin(request.headers)) return crossOriginRefusal();
  const startedAt = performance.now();
  const requestId = requestIdFrom(request.headers.get("x-request-id"));
  const words = wordsFor(negotiateLocale(request.headers.get("accept-language")));
  const { t } = words;
  const ip = clientIp(request.headers);
  let values: Record<string, string> | undefined;
  try {
    return await withDatabaseBudget(
      REQUEST_DATABASE_BUDGET_MS,
      async (): Promise<Response> => {
        if (!validTagAddress(encryptedId)) throw new NotFoundError();
        const form = await readContactForm(request);
        values = Object.fromEntries(CONTACT_FIELDS.map((name) => [name, formText(form, name)]));
        const parsed = contactOwnerInput.safeParse(formInput(contactOwnerInput, form));
        if (!parsed.success) return contactPage(request, requestId, startedAt, words, encryptedId, 400, invalidContactState(t, parsed.error, values));
        const ctx = await pageContext(request, ip, true);
        const decision = await checkRateLimits(endpointRateLimits(finderThreadEndpoints.contact), { ip, userId: ctx.actor.kind === "user" ? ctx.actor.userId : null });
        if (!decision.allowed) throw new RateLimitError(decision.retryAfter);
        const result = await contactOwner(ctx, encryptedId, parsed.data, visitorFrom(request.headers, "POST", ip));
        observeRequest(ROUTE, "POST", 303, secondsSince(startedAt));
        const location = `/thread/${result.threadToken}?sent=1${parsed.data.finderEmail ? "&email=1" : ""}`;
        return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store", "X-Request-Id": requestId } });
      },
      request.signal,
    );
  } catch (thrown) {
    const error = toDomainError(thrown);
    if (error instanceof NotFoundError) return respond(request, requestId, startedAt, { status: 404, page: notice(words, "notFound") });
    if (error.code === "SERVICE_UNAVAILABLE" || error.code === "INTERNAL_ERROR") return respond(request, requestId, startedAt, failure(thrown, words, requestId));
    const [status, message, headers] =
      error instanceof RateLimitError
        ? [429, t("rateLimited"), { "Retry-After": String(Math.max(1, error.retryAfterSeconds)) }]
        : error instanceof ForbiddenError
          ? [403, t("contactForbidden"), undefined]
          : error instanceof PayloadTooLargeError
            ? [413, t("checkFields"), undefined]
            : error instanceof UnsupportedMediaTypeError
              ? [415, t("checkFields"), undefined]
              : [400, t("failed"), undefined];
    try {
      return await contactPage(request, requestId, startedAt, words, encryptedId, status, { status: "error", message, values }, headers);
    } catch (again) {
      return respond(request, requestId, startedAt, failure(again, words, requestId));
    }
  }
}

/** The tag's page with the form's result, read without recording a scan; rendered for this answer only. */
async function contactPage(request: Request, requestId: string, startedAt: number, words: FinderWords, encryptedId: string, status: number, state: FormState, headers?: Record<string, string>): Promise<Response> {
  const ctx: ServiceContext = { actor: { kind: "public", ip: clientIp(request.headers) }, db: getDatabase().db };
  const view = await withDatabaseBudget(REQUEST_DATABASE_BUDGET_MS, () => peekScanView(ctx, encryptedId));
  if (view.status === "PENDING_SETUP") return respond(request, requestId, startedAt, { status, page: notice(words, "unowned"), headers });
  const { body, locationScript } = tagPageBody(words, view, encryptedId, state);
  return respond(request, requestId, startedAt, { status, page: pageBytes(finderDocument(words, body, { locationScript })), headers });
}
