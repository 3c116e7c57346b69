import { z } from "zod";
import { cursorParam } from "@/components/dashboard/pager";
import { pageQuery } from "@/lib/http/page-input";
import { paymentEventStatusSchema, type PaymentEventStatus } from "@/lib/services/payment-events";

export const EVENTS_PATH = "/admin/payment-events";

/** The inbox's filters: a status (FAILED unless told: what needs a look) or ALL, and a page (its cursor; none on the first). */
export interface EventsView {
  status: PaymentEventStatus | "ALL";
  cursor?: string;
}

export function eventsView(read: (name: string) => string | undefined): EventsView {
  const { status } = pageQuery({ status: paymentEventStatusSchema.or(z.literal("ALL")) }, read);
  return {
    status: status ?? "FAILED",
    cursor: cursorParam(read("cursor")),
  };
}

export function eventsHref(view: EventsView, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ status: view.status, ...(view.cursor ? { cursor: view.cursor } : {}), ...extra });
  return `${EVENTS_PATH}?${query.toString()}`;
}
