import type { FieldIssue } from "@/lib/services/errors";

/**
 * C0 control characters other than tab, line feed and carriage return. PostgreSQL cannot store NUL in
 * text at all (the query fails), and the others have no business in names, messages or addresses.
 */
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

export const CONTROL_CHARACTER_MESSAGE = "Control characters (such as NUL) are not allowed.";

/**
 * A UTF-16 surrogate without its partner (`"\ud800"` in JSON). Such a string is not text: it has no UTF-8
 * form, so a text column silently stores U+FFFD and PostgreSQL's jsonb (an event payload, a queued job)
 * refuses it and fails the whole query. (String.prototype.isWellFormed is ES2024; this is the same test.)
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATE_ALL = new RegExp(LONE_SURROGATE.source, "g");

export const LONE_SURROGATE_MESSAGE = "Text must be valid Unicode (a lone surrogate such as \\ud800 is not).";

/** False when `text` holds a lone surrogate (what `!text.isWellFormed()` says). */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** `text` with every lone surrogate replaced by U+FFFD (what `text.toWellFormed()` does). */
export function toWellFormedText(text: string): string {
  return isWellFormedText(text) ? text : text.replace(LONE_SURROGATE_ALL, "\uFFFD");
}

/**
 * A parsed JSON value with every string (values and keys, at any depth) made well-formed: for input that
 * must be kept rather than refused. Walks iteratively, so nesting depth cannot overflow the stack.
 */
export function wellFormedJson(value: unknown): unknown {
  const root = { value };
  const stack: { holder: Record<string, unknown> | unknown[]; key: string | number }[] = [{ holder: root as Record<string, unknown>, key: "value" }];
  while (stack.length) {
    const { holder, key } = stack.pop()!;
    const current = (holder as Record<string | number, unknown>)[key];
    if (typeof current === "string") {
      (holder as Record<string | number, unknown>)[key] = toWellFormedText(current);
    } else if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++) stack.push({ holder: current, key: index });
    } else if (current && typeof current === "object") {
      const object = current as Record<string, unknown>;
      for (const name of Object.keys(object)) {
        const fixed = toWellFormedText(name);
        if (fixed !== name) {
          object[fixed] = object[name];
          delete object[name];
        }
        stack.push({ holder: object, key: fixed });
      }
    }
  }
  return root.value;
}

/** Stops a hostile, deeply nested value from costing more than a bounded walk. */
const MAX_NODES = 10_000;
const MAX_ISSUES = 20;

export function hasControlCharacters(text: string): boolean {
  return FORBIDDEN.test(text);
}

const FORBIDDEN_ALL = new RegExp(FORBIDDEN.source, "g");

/**
 * The text without the forbidden control characters and with lone surrogates as U+FFFD (form fields: no
 * keyboard types either, and a browser's UTF-8 encoding of a form turns a lone surrogate into U+FFFD too).
 */
export function withoutControlCharacters(text: string): string {
  return toWellFormedText(text.replace(FORBIDDEN_ALL, ""));
}

/**
 * Every string in `value` (object values and array items, at any depth) that holds a forbidden control
 * character or is not well-formed (a lone surrogate), as VALIDATION_ERROR field issues named by their
 * dotted path (`items.0.name`). An object key holding either names the object that has it (a record field's
 * keys are stored too, and the key itself is not echoed back). Walks iteratively, so nesting depth cannot
 * overflow the stack. One rule for every endpoint (route()) and server action (action()).
 */
export function controlCharacterIssues(value: unknown, prefix?: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const stack: { value: unknown; path: string[] }[] = [{ value, path: prefix ? [prefix] : [] }];
  for (let visited = 0; stack.length && visited < MAX_NODES && issues.length < MAX_ISSUES; visited++) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === "string") {
      const message = textIssue(current);
      if (message) issues.push({ field: path.join(".") || "body", message });
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) stack.push({ value: current[index], path: [...path, String(index)] });
    } else if (current && typeof current === "object" && !(current instanceof Date)) {
      const entries = Object.entries(current);
      const badKey = entries.map(([key]) => textIssue(key)).find(Boolean);
      if (badKey) {
        issues.push({ field: path.join(".") || "body", message: badKey });
        continue;
      }
      for (let index = entries.length - 1; index >= 0; index--) stack.push({ value: entries[index]![1], path: [...path, entries[index]![0]] });
    }
  }
  return issues;
}

/** Why a string may not be taken as text, or undefined when it may. */
function textIssue(text: string): string | undefined {
  if (FORBIDDEN.test(text)) return CONTROL_CHARACTER_MESSAGE;
  if (!isWellFormedText(text)) return LONE_SURROGATE_MESSAGE;
  return undefined;
}
