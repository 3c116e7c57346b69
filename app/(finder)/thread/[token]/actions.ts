"use server";

import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import type { FormState } from "@/lib/forms/form-state";
import { action, rowAction } from "@/lib/forms/action";
import { finderThreadEndpoints, threadTokenParams } from "@/lib/http/endpoints/finder-threads";
import { emailThreadLinkToFinder, replyAsFinder, setFinderEmail } from "@/lib/services/messages";
import { ForbiddenError, NotFoundError, RateLimitError } from "@/lib/services/errors";


/** The finder's reply: same schema, limits and verb as POST /scan/thread/:token/reply; then back to the thread. */
export async function finderReplyAction(previous: FormState, formData: FormData): Promise<FormState> {
  const t = await getTranslations("Finder");
  const thread = await getTranslations("Thread");
  const run = action.for(
    finderThreadEndpoints.reply,
    {
      values: ["message"],
      onInvalid: (error, values): FormState => {
        const tooLong = error.issues.some((issue) => issue.code === "too_big");
        const text = tooLong ? t("tooLong", { max: 2000 }) : t("messageRequired");
        return { status: "error", message: t("checkFields"), fieldErrors: { message: [text] }, values };
      },
      rateLimitedMessage: () => t("rateLimited"),
      failedMessage: t("failed"),
      onError: (error, values): FormState => {
        if (error instanceof ForbiddenError) return { status: "error", message: thread("closed"), values };
        if (error instanceof NotFoundError) return { status: "error", message: thread("notFoundHeading"), values };
        if (error instanceof RateLimitError) return { status: "error", message: t("rateLimited"), values };
        return { status: "error", message: t("failed"), values };
      },
    },
    async ({ ctx, params: { token }, input }) => {
      await replyAsFinder(ctx, token, input);
      redirect(`/thread/${token}#latest`);
    },
  );
  return run(previous, formData);
}

/** "E-mail me this link": sends the thread link to the address the finder gave (if any); the same answer either way. */
// Plain rowAction: a page-only convenience with no API twin (an API client already holds its token).
export const emailThreadLinkAction = rowAction({ auth: "optional", params: threadTokenParams, rateLimit: ["general"], onError: (_error, formData) => `/thread/${encodeURIComponent(String(formData.get("token") ?? ""))}` }, async ({ ctx, params: { token } }) => {
  await emailThreadLinkToFinder(ctx, token);
  return `/thread/${token}?emailed=1`;
});

/** "E-mail me when the owner replies": same schema, limits and verb as PUT /scan/thread/:token/email. */
export async function finderEmailOptInAction(previous: FormState, formData: FormData): Promise<FormState> {
  const t = await getTranslations("Finder");
  const thread = await getTranslations("Thread");
  const run = action.for(
    finderThreadEndpoints.email,
    {
      values: ["finderEmail"],
      onInvalid: (_error, values): FormState => ({ status: "error", message: t("checkFields"), fieldErrors: { finderEmail: [thread("optInInvalid")] }, values }),
      rateLimitedMessage: () => t("rateLimited"),
      failedMessage: t("failed"),
      onError: (error, values): FormState => {
        if (error instanceof ForbiddenError) return { status: "error", message: thread("closed"), values };
        if (error instanceof NotFoundError) return { status: "error", message: thread("notFoundHeading"), values };
        if (error instanceof RateLimitError) return { status: "error", message: t("rateLimited"), values };
        return { status: "error", message: t("failed"), values };
      },
    },
    async ({ ctx, params: { token }, input }) => {
      await setFinderEmail(ctx, token, input);
      redirect(`/thread/${token}?optin=1`);
    },
  );
  return run(previous, formData);
}
