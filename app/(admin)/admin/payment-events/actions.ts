"use server";

import { revalidatePath } from "next/cache";
import { rowAction } from "@/lib/forms/action";
import { paymentEndpoints } from "@/lib/http/endpoints/payments";
import { errorNotice } from "@/lib/http/page-input";
import { formText } from "@/lib/forms/form-state";
import { replayPaymentEvent } from "@/lib/services/payment-events";
import { eventsHref, eventsView, EVENTS_PATH } from "./events-path";

function back(formData: FormData, extra: Record<string, string>): string {
  const view = eventsView((name) => formText(formData, `view-${name}`) || undefined);
  return eventsHref(view, extra);
}

/** POST /admin/payment-events/:id/replay: back to RECEIVED with a new processing job; a PROCESSED one is 409. */
export const replayPaymentEventAction: (formData: FormData) => Promise<void> = rowAction.for(
  paymentEndpoints.adminReplay,
  {
    returnTo: EVENTS_PATH,
    revalidate: () => revalidatePath(EVENTS_PATH),
    onError: (error, formData) => {
      const notice = errorNotice({ CONFLICT: "processed", NOT_FOUND: "missing" })(error);
      return notice ? back(formData, { notice, event: formText(formData, "id") }) : undefined;
    },
  },
  async ({ ctx, params, formData }) => {
    const event = await replayPaymentEvent(ctx, params.id);
    return back(formData, { notice: "replayed", event: event.id, attempts: String(event.attempts) });
  },
);
