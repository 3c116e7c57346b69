import { ORDER_STATUSES } from "@/lib/services/orders";

export const ORDERS_PATH = "/admin/orders";

type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The list's filters from its query string: a status (or all) and a page. */
export interface OrdersView {
  status?: OrderStatus;
  page: number;
}

export function ordersView(read: (name: string) => string | undefined): OrdersView {
  const status = read("status");
  const page = Number(read("page"));
  return {
    status: (ORDER_STATUSES as readonly string[]).includes(status ?? "") ? (status as OrderStatus) : undefined,
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
  };
}

export function ordersHref(view: OrdersView, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ ...(view.status ? { status: view.status } : {}), ...(view.page > 1 ? { page: String(view.page) } : {}), ...extra });
  const text = query.toString();
  return text ? `${ORDERS_PATH}?${text}` : ORDERS_PATH;
}
