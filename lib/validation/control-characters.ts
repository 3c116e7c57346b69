import type { FieldIssue } from "@/lib/services/errors";

/**
 * C0 control characters other than tab, line feed and carriage return. PostgreSQL cannot store NUL in
 * text at all (the query fails), and the others have no business in names, messages or addresses.
 */
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

export const CONTROL_CHARACTER_MESSAGE = "Control characters (such as NUL) are not allowed.";

/** Stops a hostile, deeply nested value from costing more than a bounded walk. */
const MAX_NODES = 10_000;
const MAX_ISSUES = 20;

export function hasControlCharacters(text: string): boolean {
  return FORBIDDEN.test(text);
}

const FORBIDDEN_ALL = new RegExp(FORBIDDEN.source, "g");

/** The text without the forbidden control characters (form fields: no keyboard types them). */
export function withoutControlCharacters(text: string): string {
  return text.replace(FORBIDDEN_ALL, "");
}

/**
 * Every string in `value` (object values and array items, at any depth) that holds a forbidden control
 * character, as VALIDATION_ERROR field issues named by their dotted path (`items.0.name`). Walks
 * iteratively, so nesting depth cannot overflow the stack.
 */
export function controlCharacterIssues(value: unknown, prefix?: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const stack: { value: unknown; path: string[] }[] = [{ value, path: prefix ? [prefix] : [] }];
  for (let visited = 0; stack.length && visited < MAX_NODES && issues.length < MAX_ISSUES; visited++) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === "string") {
      if (FORBIDDEN.test(current)) issues.push({ field: path.join(".") || "body", message: CONTROL_CHARACTER_MESSAGE });
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) stack.push({ value: current[index], path: [...path, String(index)] });
    } else if (current && typeof current === "object" && !(current instanceof Date)) {
      const entries = Object.entries(current);
      for (let index = entries.length - 1; index >= 0; index--) stack.push({ value: entries[index]![1], path: [...path, entries[index]![0]] });
    }
  }
  return issues;
}
