import type { ReactElement } from "react";
import { render } from "@react-email/render";
import type { RenderedEmail } from "./types";

// Headings keep their case in the plain-text part (html-to-text upper-cases them by default).
const textSelectors = ["h1", "h2", "h3", "h4"].map((selector) => ({ selector, options: { uppercase: false } }));

/** Renders a React Email template to its HTML and plain-text parts. */
export async function renderEmail(template: ReactElement, subject: string): Promise<RenderedEmail> {
  const [html, text] = await Promise.all([
    render(template),
    render(template, { plainText: true, htmlToTextOptions: { selectors: textSelectors } }),
  ]);
  return { subject, html, text: text.trim() };
}
