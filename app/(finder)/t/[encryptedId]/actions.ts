"use server";

import { redirect } from "next/navigation";
import { headers } from "next/headers";
import { getTranslations } from "next-intl/server";
import type { FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { finderThreadEndpoints } from "@/lib/http/endpoints/finder-threads";
import { visitorFrom } from "@/lib/http/visitor";
import { contactOwner } from "@/lib/services/messages";
import { ForbiddenError, NotFoundError, RateLimitError } from "@/lib/services/errors";

const VALUES = ["message", "finderName", "finderEmail"] as const;

/** The zod issue of a contact field, said in the finder's language. */
function localizedIssue(t: Awaited<ReturnType<typeof getTranslations<"Finder">>>, field: string, code: string, maximum?: unknown): string {
  if (code === "too_big") return t("tooLong", { max: Number(maximum ?? 0) });
  if (field === "finderEmail") return t("invalidEmail");
  if (field === "message") return t("messageRequired");
  return t("checkFields");
}

/**
 * The finder's contact form: a plain form post (no JavaScript needed). On success the finder lands on the
 * new conversation, whose page shows the link to keep. Same schema, limits and service as
 * POST /scan/:encryptedId/contact.
 */
export async function contactOwnerAction(previous: FormState, formData: FormData): Promise<FormState> {
  const t = await getTranslations("Finder");
  const run = action.for(
    finderThreadEndpoints.contact,
    {
      values: VALUES,
      onInvalid: (error, values): FormState => {
        const fieldErrors: Record<string, string[]> = {};
        for (const issue of error.issues) {
          const field = String(issue.path[0] ?? "");
          fieldErrors[field] = [localizedIssue(t, field, issue.code, (issue as { maximum?: unknown }).maximum)];
        }
        return { status: "error", message: t("checkFields"), fieldErrors, values };
      },
      rateLimitedMessage: () => t("rateLimited"),
      failedMessage: t("failed"),
      onError: (error, values): FormState => {
        if (error instanceof ForbiddenError) return { status: "error", message: t("contactForbidden"), values };
        if (error instanceof NotFoundError) return { status: "error", message: t("notFoundHeading"), values };
        if (error instanceof RateLimitError) return { status: "error", message: t("rateLimited"), values };
        return { status: "error", message: t("failed"), values };
      },
    },
    async ({ ctx, params: { encryptedId }, input }) => {
      const requestHeaders = await headers();
      const result = await contactOwner(ctx, encryptedId, input, visitorFrom(requestHeaders, "POST"));
      redirect(`/thread/${result.threadToken}?sent=1${input.finderEmail ? "&email=1" : ""}`);
    },
  );
  return run(previous, formData);
}
