import type { z } from "zod";
import type { FormState } from "./form-state";

/** The finder's translator, as far as the contact fields' messages go (next-intl's on the pages, use-intl's on the tag page). */
export type ContactIssueWords = (key: "tooLong" | "invalidEmail" | "messageRequired" | "checkFields", values?: { max: number }) => string;

/** A contact field's zod issue, said in the finder's language. */
function localizedIssue(t: ContactIssueWords, field: string, code: string, maximum?: unknown): string {
  if (code === "too_big") return t("tooLong", { max: Number(maximum ?? 0) });
  if (field === "finderEmail") return t("invalidEmail");
  if (field === "message") return t("messageRequired");
  return t("checkFields");
}

/**
 * A refused contact form (the finder's tag page, a lost pet's page): each field's problem in the finder's
 * language, with the values put back.
 */
export function invalidContactState(t: ContactIssueWords, error: z.ZodError, values: Record<string, string> | undefined): FormState {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "");
    fieldErrors[field] = [localizedIssue(t, field, issue.code, (issue as { maximum?: unknown }).maximum)];
  }
  return { status: "error", message: t("checkFields"), fieldErrors, values };
}
