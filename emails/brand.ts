import { env } from "@/lib/env";

/** The name every e-mail and the footer use for the service. */
export const SERVICE_NAME = "Tag Service";

/**
 * Colours chosen for WCAG AA contrast: body text on white is ~15:1, muted text on the footer
 * background ~7:1, white on the button ~6.7:1.
 */
export const emailColors = {
  text: "#1f2937",
  muted: "#4b5563",
  background: "#f3f4f6",
  surface: "#ffffff",
  border: "#e5e7eb",
  accent: "#1d4ed8",
  onAccent: "#ffffff",
} as const;

export const emailFontFamily = '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';

/** APP_URL without a trailing slash: the base of every absolute link in an e-mail. */
export function defaultAppUrl(): string {
  return env.APP_URL.replace(/\/+$/, "");
}
