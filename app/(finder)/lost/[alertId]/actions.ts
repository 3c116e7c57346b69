"use server";

import { redirect } from "next/navigation";
import { headers } from "next/headers";
import { getTranslations } from "next-intl/server";
import type { FormState } from "@/lib/forms/form-state";
import { formText } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { invalidContactState } from "@/lib/forms/contact-form-errors";
import { readSignedNumber } from "@/lib/forms/signed-number";
import { alertEndpoints } from "@/lib/http/endpoints/alerts";
import { visitorFrom } from "@/lib/http/visitor";
import { ALERT_CLOSED, contactOwnerFromAlert, reportSighting } from "@/lib/services/alerts";
import { ForbiddenError, NotFoundError, RateLimitError, type DomainError } from "@/lib/services/errors";

type Finder = Awaited<ReturnType<typeof getTranslations<"Finder">>>;

const CONTACT_VALUES = ["message", "finderName", "finderEmail"] as const;
/** What a sighting described in words may say (the field's limit), leaving room for its lead-in within a message's 2000. */
const WHERE_MAX = 1800;

/** The alert's refusals in the visitor's language: closed (403), gone (404), too many (429). */
function refusal(t: Finder, lost: Awaited<ReturnType<typeof getTranslations<"Lost">>>, error: DomainError, values: Record<string, string> | undefined): FormState {
  if (error instanceof ForbiddenError) return { status: "error", message: error.message === ALERT_CLOSED ? lost("contactClosed") : t("contactForbidden"), values };
  if (error instanceof NotFoundError) return { status: "error", message: lost("notFoundHeading"), values };
  if (error instanceof RateLimitError) return { status: "error", message: t("rateLimited"), values };
  return { status: "error", message: t("failed"), values };
}

async function texts() {
  return { t: await getTranslations("Finder"), lost: await getTranslations("Lost") };
}

/**
 * "Message the owner" on a lost pet's page: the finder page's contact form (same fields, limits and
 * messages), through POST /lost/:alertId/contact's contract and service; the visitor lands on the new
 * conversation, whose page shows the link to keep.
 */
export async function contactFromAlertAction(previous: FormState, formData: FormData): Promise<FormState> {
  const { t, lost } = await texts();
  const run = action.for(
    alertEndpoints.contact,
    {
      values: CONTACT_VALUES,
      onInvalid: (error, values) => invalidContactState(t, error, values),
      rateLimitedMessage: () => t("rateLimited"),
      failedMessage: t("failed"),
      onError: (error, values) => refusal(t, lost, error, values),
    },
    async ({ ctx, params: { alertId }, input }) => {
      const result = await contactOwnerFromAlert(ctx, alertId, input, visitorFrom(await headers(), "POST"));
      redirect(`/thread/${result.threadToken}?sent=1${input.finderEmail ? "&email=1" : ""}`);
    },
  );
  return run(previous, formData);
}

/**
 * "I've seen this pet" with the phone's position: POST /lost/:alertId/sightings's contract and service (the
 * conversation opened and the place added to it in one transaction), then the conversation.
 */
export async function sightingAction(previous: FormState, formData: FormData): Promise<FormState> {
  const { t, lost } = await texts();
  const run = action.for(
    alertEndpoints.sighting,
    {
      read: (data) => ({ latitude: readSignedNumber(data, "latitude"), longitude: readSignedNumber(data, "longitude"), accuracy: readSignedNumber(data, "accuracy") }),
      onInvalid: (): FormState => ({ status: "error", message: t("failed") }),
      rateLimitedMessage: () => t("rateLimited"),
      failedMessage: t("failed"),
      onError: (error, values) => refusal(t, lost, error, values),
    },
    async ({ ctx, params: { alertId }, input }) => {
      const result = await reportSighting(ctx, alertId, input, visitorFrom(await headers(), "POST"));
      redirect(`/thread/${result.threadToken}?sent=1`);
    },
  );
  return run(previous, formData);
}

/**
 * "I've seen this pet" without the phone's position (no JavaScript, or the browser would not tell): where,
 * in the visitor's words, sent as the first message of a conversation (the contact's contract and service).
 */
export async function describeSightingAction(previous: FormState, formData: FormData): Promise<FormState> {
  const { t, lost } = await texts();
  const run = action.for(
    alertEndpoints.contact,
    {
      values: ["where"],
      read: (data) => {
        const where = formText(data, "where").trim();
        return { message: where ? lost("sightingMessage", { where }) : "" };
      },
      onInvalid: (error, values): FormState => ({
        status: "error",
        message: t("checkFields"),
        fieldErrors: { where: [error.issues.some((issue) => issue.code === "too_big") ? t("tooLong", { max: WHERE_MAX }) : lost("whereRequired")] },
        values,
      }),
      rateLimitedMessage: () => t("rateLimited"),
      failedMessage: t("failed"),
      onError: (error, values) => refusal(t, lost, error, values),
    },
    async ({ ctx, params: { alertId }, input }) => {
      const result = await contactOwnerFromAlert(ctx, alertId, input, visitorFrom(await headers(), "POST"));
      redirect(`/thread/${result.threadToken}?sent=1`);
    },
  );
  return run(previous, formData);
}
