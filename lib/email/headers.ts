/**
 * Header hygiene: a subject, a reply-to address or a header value that a visitor influenced (the contact
 * form's subject and address) must never carry a line break, or it could add headers of its own.
 */

/** Line breaks (and other vertical whitespace) folded to one space, trimmed. */
export function singleLine(value: string): string {
  return value.replace(/[\r\n\u0085\u2028\u2029]+/g, " ").trim();
}

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/** A header value fit to send: refuses (throws) on a line break rather than sending something altered. */
export function safeHeaderValue(value: string): string {
  if (/[\r\n\0]/.test(value)) throw new Error("e-mail header value contains a line break");
  return value;
}

/** Extra headers checked: token names only, values without line breaks. */
export function safeHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) throw new Error(`invalid e-mail header name "${name}"`);
    out[name] = safeHeaderValue(value);
  }
  return out;
}
