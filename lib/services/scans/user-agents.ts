import { list as isbotPatterns } from "isbot";
import UAParser from "ua-parser-js";

/**
 * Which user agents are crawlers and link-preview fetchers, and the short label ("iPhone · Safari",
 * "Slackbot link preview") a scan keeps instead of the raw string.
 *
 * The bot list is isbot's (maintained, updated with each release), with one deliberate change: isbot
 * also counts generic HTTP client libraries (curl, wget, python-requests, Node's fetch, axios, okhttp,
 * Go, Java, …) as bots, but third-party apps call our public API with exactly those, so a scan through
 * them is a person's scan. The patterns that only serve to catch such clients are taken out, and the
 * one broad `http` pattern among them is narrowed to the crawler convention it was catching (a
 * `+http://…` contact address in the user agent). E-mail security scanners that isbot does not list
 * (Microsoft Office's link check, Proofpoint, Barracuda, Mimecast) are added.
 */

/** isbot patterns whose only extra catch is generic HTTP client libraries and API tools. */
export const GENERIC_CLIENT_PATTERNS: readonly string[] = [
  // a bare "product/1.2" user agent: curl/8.5, axios/1.6, undici, okhttp/4, Java/17, node, Wget/1.21 …
  String.raw`^[\w \.\-\(?:\):%]+(?:/v?\d+(?:\.\d+)?(?:\.\d{1,10})*?)?(?:,|$)`,
  String.raw`^[\w\-]+/[\w]+$`,
  String.raw`^\w+/[\w\(\)]*$`,
  // okhttp, Go-http-client, Apache-HttpClient, HTTPie, aiohttp, GuzzleHttp
  String.raw`(?<!lib)http`,
  // curl, Python-urllib
  "url",
  "^wget",
  "^python",
  String.raw`node\b`,
  "java(?!;)",
  String.raw`\bperl\b`,
  "^php",
  "^postman",
  // RestSharp
  "^rest",
];

/** Crawlers name a contact page as `+http://…`; HTTP client libraries do not. Replaces isbot's broad `http`. */
const CRAWLER_CONTACT_URL = String.raw`\+https?://`;

/** Link checkers of e-mail security gateways and Office, which isbot does not list. */
export const LINK_SCANNER_PATTERNS: readonly string[] = [
  // Office apps and Outlook check a link (and fetch its preview) before the browser opens it
  String.raw`\bms-office\b`,
  String.raw`\bmsoffice\b`,
  "^microsoft office/",
  "microsoft outlook",
  "proofpoint",
  "barracuda",
  "mimecast",
];

const botPatternList = [...isbotPatterns.filter((pattern) => !GENERIC_CLIENT_PATTERNS.includes(pattern)), CRAWLER_CONTACT_URL, ...LINK_SCANNER_PATTERNS];
const botPattern = new RegExp(botPatternList.join("|"), "i");

/** The isbot patterns this module expects to remove but isbot no longer has (a changed isbot release). */
export function missingGenericClientPatterns(): string[] {
  return GENERIC_CLIENT_PATTERNS.filter((pattern) => !isbotPatterns.includes(pattern));
}

/** True for crawlers, link-preview fetchers and link scanners; false for browsers, HTTP client libraries and no user agent. */
export function isBotUserAgent(userAgent: string | null | undefined): boolean {
  if (!userAgent?.trim()) return false;
  // Every scan asks (the pattern is isbot's few hundred alternatives); a longer string is tested each time
  // rather than kept.
  if (userAgent.length > MEMO_KEY_MAX) return botPattern.test(userAgent);
  return remembered(botVerdicts, userAgent, () => botPattern.test(userAgent));
}

/** Answers kept per user-agent string: a few browsers' strings make most scans. Small, as anyone can send any string. */
const MEMO_ENTRIES = 500;
const MEMO_KEY_MAX = 1000;
const botVerdicts = new Map<string, boolean>();

function remembered<T>(memo: Map<string, T>, key: string, compute: () => T): T {
  const known = memo.get(key);
  if (known !== undefined) return known;
  const value = compute();
  if (memo.size >= MEMO_ENTRIES) memo.delete(memo.keys().next().value!);
  memo.set(key, value);
  return value;
}

/** Names for the bots owners meet most, by what their user agent says. First match wins. */
const KNOWN_BOTS: readonly [RegExp, string][] = [
  [/slackbot|slack-imgproxy/i, "Slackbot link preview"],
  [/^whatsapp/i, "WhatsApp link preview"],
  [/discordbot/i, "Discord link preview"],
  [/telegrambot/i, "Telegram link preview"],
  [/twitterbot/i, "X (Twitter) link preview"],
  [/facebookexternalhit|facebookcatalog|facebot/i, "Facebook link preview"],
  [/linkedinbot/i, "LinkedIn link preview"],
  [/mastodon/i, "Mastodon link preview"],
  [/skypeuripreview/i, "Microsoft Teams link preview"],
  [/bingpreview/i, "Bing link preview"],
  [/ms-?office|microsoft office|microsoft outlook/i, "Microsoft Office link check"],
  [/proofpoint/i, "Proofpoint link scanner"],
  [/barracuda/i, "Barracuda link scanner"],
  [/mimecast/i, "Mimecast link scanner"],
  [/googlebot/i, "Googlebot"],
  [/bingbot/i, "Bingbot"],
  [/applebot/i, "Applebot"],
  [/yandex/i, "YandexBot"],
  [/duckduckbot/i, "DuckDuckBot"],
  [/baiduspider/i, "Baiduspider"],
];

const TOKEN_CHARACTER = /[A-Za-z0-9_.-]/;
const MAX_LABEL = 40;

/**
 * An unnamed bot's label: its leading product token ("Kaspersky", "got"), or for a browser-like
 * "Mozilla/…" string the token holding the bot match ("AhrefsBot" in "…; AhrefsBot/7.0; …"); else "Bot".
 */
function botToken(userAgent: string): string {
  const leading = /^[A-Za-z][A-Za-z0-9_.-]{1,}/.exec(userAgent)?.[0];
  if (leading && !/^mozilla$/i.test(leading)) return leading.slice(0, MAX_LABEL);
  const match = botPattern.exec(userAgent);
  if (!match) return "Bot";
  let start = match.index;
  let end = match.index + Math.max(1, match[0].length);
  while (start > 0 && TOKEN_CHARACTER.test(userAgent[start - 1]!)) start--;
  while (end < userAgent.length && TOKEN_CHARACTER.test(userAgent[end]!)) end++;
  const token = userAgent.slice(start, end).replace(/^[._-]+|[._-]+$/g, "");
  return /^[A-Za-z][A-Za-z0-9_.-]{2,}$/.test(token) ? token.slice(0, MAX_LABEL) : "Bot";
}

const OS_NAMES: Record<string, string> = { "Mac OS": "Mac", macOS: "Mac", "Chromium OS": "ChromeOS", iOS: "iPhone", iPadOS: "iPad" };

/** "iPhone · Safari", "Android · Chrome", "Windows · Edge"; null when the parser knows neither part. */
function browserLabel(userAgent: string): string | null {
  const { browser, os, device } = new UAParser(userAgent).getResult();
  const model = device.model === "iPhone" || device.model === "iPad" ? device.model : undefined;
  const platform = model ?? (os.name ? (OS_NAMES[os.name] ?? os.name) : undefined);
  const name = browser.name?.replace(/^Mobile /, "");
  if (!platform && !name) return null;
  return [platform, name ?? "Browser"]
    .filter(Boolean)
    .join(" · ")
    .replace(/[^\p{L}\p{N} ·().-]/gu, "")
    .slice(0, MAX_LABEL);
}

/**
 * The short class of a user agent that a scan keeps (never the raw string): a bot's name, a browser
 * as "device · browser", an HTTP client as "HTTP client · curl", or null when none was sent.
 */
export function describeUserAgent(userAgent: string | null | undefined): string | null {
  const ua = userAgent?.trim().slice(0, MEMO_KEY_MAX);
  if (!ua) return null;
  return remembered(described, ua, () => labelOf(ua));
}

const described = new Map<string, string>();

function labelOf(ua: string): string {
  if (isBotUserAgent(ua)) return KNOWN_BOTS.find(([pattern]) => pattern.test(ua))?.[1] ?? botToken(ua);
  const browser = browserLabel(ua);
  if (browser) return browser;
  const product = /^[A-Za-z][A-Za-z0-9_.-]*/.exec(ua)?.[0];
  return product && !/^mozilla$/i.test(product) ? `HTTP client · ${product.slice(0, MAX_LABEL - 16)}` : "Unknown client";
}
