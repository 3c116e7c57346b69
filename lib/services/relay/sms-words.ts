/**
 * The relay's text-message grammar (docs/relay.md), pure so unit tests cover it: carriers' keywords,
 * a finder's "<PIN> <text>", an owner's "<code> <text>" and the per-conversation codes.
 */

/** Carriers' opt-out and opt-in words (Twilio's defaults), and the help words. */
const STOP_WORDS = new Set(["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"]);
const START_WORDS = new Set(["START", "UNSTOP", "YES"]);
const HELP_WORDS = new Set(["HELP", "INFO"]);

export type SmsKeyword = "stop" | "start" | "help";

/** A text that is only a keyword (any case, surrounding spaces and a final full stop or "!" allowed), else null. */
export function smsKeyword(body: string): SmsKeyword | null {
  const word = body
    .trim()
    .replace(/[.!]+$/, "")
    .toUpperCase();
  if (STOP_WORDS.has(word)) return "stop";
  if (START_WORDS.has(word)) return "start";
  if (HELP_WORDS.has(word)) return "help";
  return null;
}

/** A finder's "<6-digit PIN> <text>" (the PIN may be followed by ":" or "-"), or null when it does not start with a PIN. */
export function finderText(body: string): { pin: string; text: string } | null {
  const match = /^\s*(\d{6})(?!\d)[\s:,-]*([\s\S]*)$/.exec(body);
  if (!match) return null;
  return { pin: match[1]!, text: match[2]!.trim() };
}

/** The alphabet of conversation codes: no 0/O, 1/I/L, so a code read off a phone screen is typed back right. */
export const RELAY_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const RELAY_CODE_LENGTH = 4;

/** An owner's "<code> <text>" (code in any case), or null when the text does not start with a code-shaped word. */
export function ownerCodedText(body: string): { code: string; text: string } | null {
  const match = /^\s*([A-Za-z0-9]{4})(?:[\s:,-]+([\s\S]*))?$/.exec(body);
  if (!match) return null;
  const code = match[1]!.toUpperCase();
  if (![...code].every((char) => RELAY_CODE_ALPHABET.includes(char))) return null;
  return { code, text: (match[2] ?? "").trim() };
}

export interface OpenConversation {
  threadId: string;
  relayCode: string;
}

export type OwnerReplyRoute = { kind: "to"; threadId: string; text: string } | { kind: "ask"; codes: string[] } | { kind: "none" } | { kind: "empty" };

/**
 * Where an owner's text goes (docs/relay.md): with several conversations open (a finder texted within 7
 * days, newest first), a leading code picks one and is taken off the text; without a matching code the
 * owner is asked to start with one. With one open conversation a leading code is still honoured (and
 * removed); otherwise the whole text goes to it.
 */
export function routeOwnerReply(body: string, open: readonly OpenConversation[]): OwnerReplyRoute {
  if (open.length === 0) return { kind: "none" };
  const coded = ownerCodedText(body);
  const picked = coded ? open.find((conversation) => conversation.relayCode === coded.code) : undefined;
  if (picked && coded) return coded.text ? { kind: "to", threadId: picked.threadId, text: coded.text } : { kind: "empty" };
  if (open.length > 1) return { kind: "ask", codes: open.map((conversation) => conversation.relayCode) };
  const text = body.trim();
  return text ? { kind: "to", threadId: open[0]!.threadId, text } : { kind: "empty" };
}

/** Text as stored: control characters (NUL breaks the database) become spaces, at most `max` characters. */
export function cleanText(text: string, max = 1600): string {
  const cleaned = text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, " ").replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
  return cleaned.length > max ? cleaned.slice(0, max) : cleaned;
}
