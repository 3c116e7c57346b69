import { isIP } from "node:net";
/**
 * The API specification's Limits table as data, plus the account lockout, the limits added where a
 * stranger can reach an owner, and the caps on tag transfer offers (docs/decisions/0012-rate-limits.md). Every limit is scaled by RATE_LIMIT_MULTIPLIER when the limiter is built.
 */

export const SECOND_MS = 1_000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/**
 * What a counter is keyed by:
 * - `caller`: the user id when the request is authenticated, otherwise the client IP;
 * - `ip`: the client IP, whoever is signed in;
 * - `key`: an arbitrary key the caller supplies (e.g. the account for failed logins).
 */
export type RateLimitKeyBy = "caller" | "ip" | "key";

export interface RateLimitPolicySpec {
  /** Requests allowed per window, before scaling by RATE_LIMIT_MULTIPLIER. */
  readonly limit: number;
  /** Fixed window length in milliseconds. */
  readonly windowMs: number;
  readonly keyBy: RateLimitKeyBy;
  readonly appliesTo: string;
}

export const rateLimitPolicies = {
  general: { limit: 100, windowMs: MINUTE_MS, keyBy: "caller", appliesTo: "every /api/v1 endpoint not named below" },
  auth: { limit: 10, windowMs: MINUTE_MS, keyBy: "ip", appliesTo: "login, register, password reset" },
  publicScan: { limit: 30, windowMs: MINUTE_MS, keyBy: "ip", appliesTo: "GET /scan/:encryptedId, GET /lost/:alertId" },
  emergencyScan: { limit: 5, windowMs: MINUTE_MS, keyBy: "ip", appliesTo: "GET /scan/:encryptedId/emergency" },
  productsListing: { limit: 30, windowMs: MINUTE_MS, keyBy: "ip", appliesTo: "GET /orders/products" },
  vinVerify: { limit: 10, windowMs: MINUTE_MS, keyBy: "ip", appliesTo: "GET /vehicles/verify/:vin" },
  registration: { limit: 5, windowMs: HOUR_MS, keyBy: "ip", appliesTo: "POST /auth/register" },
  passwordReset: { limit: 3, windowMs: HOUR_MS, keyBy: "ip", appliesTo: "POST /auth/forgot-password" },
  contactForm: { limit: 3, windowMs: HOUR_MS, keyBy: "ip", appliesTo: "POST /contact" },
  // Not in the specification's table: each sign-up may e-mail an address someone typed, so one IP gets
  // 10 an hour (the service also sends one confirmation per address per 10 minutes at most).
  newsletterSignup: { limit: 10, windowMs: HOUR_MS, keyBy: "ip", appliesTo: "POST /contact/newsletter" },
  // Mail providers send RFC 8058 one-click unsubscribes from a few shared addresses: generous per IP.
  newsletterUnsubscribe: { limit: 600, windowMs: MINUTE_MS, keyBy: "ip", appliesTo: "POST /contact/newsletter/unsubscribe (one-click), per IP" },
  // A finder's messages notify (and may e-mail) the owner and need no account: these caps keep one address
  // from flooding owners. The page's forms and the API's endpoints are two doors to the same action, so both
  // count against the same counter (finderThreadEndpoints names them; the page actions take them from there).
  finderContact: { limit: 10, windowMs: HOUR_MS, keyBy: "ip", appliesTo: "new finder conversations from one IP: POST /scan/:encryptedId/contact and the finder page's contact form, POST /lost/:alertId/contact and /sightings and the lost page's forms" },
  finderReplies: { limit: 30, windowMs: 10 * MINUTE_MS, keyBy: "ip", appliesTo: "finder replies and shared locations from one IP: POST /scan/thread/:token/reply, POST /scan/thread/:token/location and the thread page's reply form, POST /lost/:alertId/sightings (its shared place)" },
  // The finder's live thread page: one stream per open tab, reopened after a drop (EventSource retries every
  // 3 s). Enough for a few tabs reconnecting through a flaky network; a loop opening streams is cut off.
  finderThreadStreams: { limit: 60, windowMs: 10 * MINUTE_MS, keyBy: "ip", appliesTo: "finder thread streams opened from one IP: GET /scan/thread/:token/stream" },
  // Setting the finder's e-mail on a conversation from its page: each address set may be mailed on the next reply.
  finderEmailOptIns: { limit: 10, windowMs: HOUR_MS, keyBy: "ip", appliesTo: "finder e-mail opt-ins from one IP: PUT /scan/thread/:token/email and the thread page's form" },
  // "E-mail me this link" mails an address the finder typed and nobody confirmed. Besides one such e-mail per
  // conversation, this caps how many reach one inbox a day, however many conversations name it.
  finderLinkEmailsByAddress: {
    limit: 3,
    windowMs: DAY_MS,
    keyBy: "key",
    appliesTo: "\"e-mail me this link\" e-mails to one address (normalised), whatever the conversation or IP",
  },
  // The payment provider's deliveries: no user to count by, and a provider catching up after an outage
  // sends bursts from a few addresses. Generous per IP; an unsigned flood costs one HMAC each and no query.
  paymentWebhook: { limit: 6000, windowMs: MINUTE_MS, keyBy: "ip", appliesTo: "POST /webhooks/payment (signed provider events), per IP" },
  // Not a limit on our clients: how fast all instances together hand e-mails to Resend, whose default is
  // 2 requests a second per team (EMAIL_SEND_RATE sets it, unscaled). Sending faster only earns 429s and
  // retries minutes apart; paced, a burst of e-mails goes out in order at the rate Resend takes.
  emailProviderSends: { limit: 2, windowMs: SECOND_MS, keyBy: "key", appliesTo: "e-mails handed to Resend per second, all instances together (EMAIL_SEND_RATE)" },
  accountLoginFailures: {
    limit: 10,
    windowMs: 15 * MINUTE_MS,
    keyBy: "key",
    appliesTo: "failed logins for one account, from any IP (the account lockout)",
  },
  // Each offer e-mails an address the sender chooses: these caps keep the service from being a way to
  // send our mail to strangers in bulk (per sender), or to flood one inbox from many accounts (per address).
  transferOffersBySender: {
    limit: 20,
    windowMs: DAY_MS,
    keyBy: "key",
    appliesTo: "transfer offers made (POST /tags/:id/transfer), per sender (user id)",
  },
  transferOffersByRecipient: {
    limit: 3,
    windowMs: DAY_MS,
    keyBy: "key",
    appliesTo: "transfer offers made to one e-mail address (normalised), whoever sends",
  },
  // Each code request sends a text we pay for to a number the caller typed (docs/relay.md): a few per
  // account an hour, and a few per number a day whoever asks (keyed by the number's keyed hash).
  phoneCodeSends: { limit: 5, windowMs: HOUR_MS, keyBy: "caller", appliesTo: "relay phone codes requested (POST /auth/phone), per account" },
  phoneCodeSendsByNumber: { limit: 5, windowMs: DAY_MS, keyBy: "key", appliesTo: "relay phone codes texted to one number (keyed hash), whoever asks" },
  // Each code takes 5 tries; this caps tries across fresh codes too.
  phoneCodeChecks: { limit: 20, windowMs: HOUR_MS, keyBy: "caller", appliesTo: "relay phone code checks (POST /auth/phone/verify), per account" },
  // The relay's webhooks (docs/relay.md): the provider posts from few addresses, as the payment provider does.
  telephonyWebhook: { limit: 6000, windowMs: MINUTE_MS, keyBy: "ip", appliesTo: "POST /webhooks/telephony/* (signed provider webhooks), per IP" },
  relayPinGuesses: { limit: 3, windowMs: HOUR_MS, keyBy: "key", appliesTo: "wrong relay PINs (calls and texts) from one number (keyed hash): after 3 the number waits" },
  relayFinderContacts: { limit: 10, windowMs: HOUR_MS, keyBy: "key", appliesTo: "relayed texts and calls from one number to one tag" },
  relayOwnerCalls: { limit: 20, windowMs: DAY_MS, keyBy: "key", appliesTo: "relayed calls put through to one owner" },
} as const satisfies Record<string, RateLimitPolicySpec>;

export type RateLimitPolicyName = keyof typeof rateLimitPolicies;

export const rateLimitPolicyNames = Object.keys(rateLimitPolicies) as RateLimitPolicyName[];

export function isRateLimitPolicyName(value: string): value is RateLimitPolicyName {
  return Object.hasOwn(rateLimitPolicies, value);
}

/** A policy as the limiter applies it: limit already scaled. */
export interface ResolvedRateLimitPolicy {
  readonly name: RateLimitPolicyName;
  readonly limit: number;
  readonly windowMs: number;
  readonly keyBy: RateLimitKeyBy;
}

export type ResolvedRateLimitPolicies = Readonly<Record<RateLimitPolicyName, ResolvedRateLimitPolicy>>;

/** Replaces parts of a policy as given (not scaled): for tests that need small limits or short windows. */
export type RateLimitPolicyOverrides = Partial<Record<RateLimitPolicyName, Partial<Pick<RateLimitPolicySpec, "limit" | "windowMs">>>>;

/** A limit scaled by the multiplier: rounded, and never below 1. */
export function scaleLimit(limit: number, multiplier: number): number {
  if (!Number.isFinite(multiplier) || multiplier <= 0) throw new RangeError(`RATE_LIMIT_MULTIPLIER must be a positive number, got ${multiplier}`);
  return Math.max(1, Math.round(limit * multiplier));
}

export function resolveRateLimitPolicies(multiplier: number, overrides: RateLimitPolicyOverrides = {}): ResolvedRateLimitPolicies {
  const resolved = {} as Record<RateLimitPolicyName, ResolvedRateLimitPolicy>;
  for (const name of rateLimitPolicyNames) {
    const spec: RateLimitPolicySpec = rateLimitPolicies[name];
    const override = overrides[name];
    const limit = override?.limit ?? scaleLimit(spec.limit, multiplier);
    const windowMs = override?.windowMs ?? spec.windowMs;
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`rate limit ${name}: limit must be a positive integer, got ${limit}`);
    if (!Number.isInteger(windowMs) || windowMs < 1) throw new RangeError(`rate limit ${name}: windowMs must be a positive integer, got ${windowMs}`);
    resolved[name] = { name, limit, windowMs, keyBy: spec.keyBy };
  }
  return resolved;
}

export interface RateLimitSubject {
  /** The client IP (decided by TRUST_PROXY upstream). */
  ip: string;
  /** The authenticated user, if any; `caller` policies count per user when present. */
  userId?: string | null;
  /** The key for `key` policies (e.g. the account id or normalised e-mail for failed logins). */
  key?: string;
}

/** The 8 groups of an IPv6 address as numbers, or null. Handles `::` and a dotted IPv4 tail. */
function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.split("%")[0]!.toLowerCase();
  const dotted = text.match(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return groups.length === 8 ? groups.map((group) => parseInt(group, 16)) : null;
}

/**
 * What an IP counts under: an IPv4 address as it is; an IPv6 address by its /64 prefix, because one
 * subscriber is routed a whole /64 and could otherwise take a fresh address (and a fresh limit) per request.
 */
export function ipRateLimitKey(ip: string): string {
  const groups = ipv6Groups(ip);
  if (!groups) return ip;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
  }
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(":")}::/64`;
}

/** The identifier a policy counts under for this subject. Throws when a `key` policy gets no key (a bug). */
export function subjectIdentifier(policy: Pick<ResolvedRateLimitPolicy, "name" | "keyBy">, subject: RateLimitSubject): string {
  switch (policy.keyBy) {
    case "caller":
      return subject.userId ? `user:${subject.userId}` : `ip:${ipRateLimitKey(subject.ip)}`;
    case "ip":
      return `ip:${ipRateLimitKey(subject.ip)}`;
    case "key":
      if (!subject.key) throw new Error(`rate limit ${policy.name} is keyed by an explicit key, but none was given`);
      return `key:${subject.key}`;
  }
}
