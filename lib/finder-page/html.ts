import { escapeHtml } from "@/lib/html-escape";

/**
 * HTML built as strings for the finder's page (docs/finder-page.md): a value interpolated into `html`…``
 * is escaped unless it is itself Html, so text from owners and finders can never become markup.
 */
export interface Html {
  readonly __html: string;
}

type Part = Html | string | number | null | undefined | false | readonly Part[];

function isHtml(value: unknown): value is Html {
  return typeof value === "object" && value !== null && "__html" in value;
}

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return "";
  if (isHtml(part)) return part.__html;
  if (Array.isArray(part)) return part.map(render).join("");
  return escapeHtml(String(part));
}

/** Markup with its interpolations escaped (attributes must be quoted: `class="${value}"`). */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  for (let index = 0; index < values.length; index++) out += render(values[index]!) + strings[index + 1]!;
  return { __html: out };
}

/** Trusted markup as is: only for our own constants (an icon, a stylesheet, a script). */
export function trusted(markup: string): Html {
  return { __html: markup };
}

/** ` name="value"` when the value is set, else nothing. */
export function attribute(name: string, value: string | number | null | undefined | false): Html {
  return value === null || value === undefined || value === false ? trusted("") : trusted(` ${name}="${escapeHtml(String(value))}"`);
}
