import { z } from "zod";
import { pageQuery } from "@/lib/http/page-input";
import { paymentEventStatusSchema, type PaymentEventStatus } from "@/lib/services/payment-events";

export const EVENTS_PATH = "/admin/payment-events";

/** The inbox's filters: a status (FAILED unless told: what needs a look) or ALL, and a page. */
export interface EventsView {
  status: PaymentEventStatus | "ALL";
  page: number;
}

export function eventsView(read: (name: string) => string | undefined): EventsView {
  const { status } = pageQuery({ status: paymentEventStatusSchema.or(z.literal("ALL")) }, read);
  const page = Number(read("page"));
  return {
    status: status ?? "FAILED",
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
  };
}

export function eventsHref(view: EventsView, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ status: view.status, ...(view.page > 1 ? { page: String(view.page) } : {}), ...extra });
  return `${EVENTS_PATH}?${query.toString()}`;
}
