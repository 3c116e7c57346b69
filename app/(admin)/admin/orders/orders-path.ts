import { cursorParam } from "@/components/dashboard/pager";
import { ORDER_STATUSES } from "@/lib/services/orders";

export const ORDERS_PATH = "/admin/orders";

type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The list's filters from its query string: a status (or all) and a page (its cursor; none on the first). */
export interface OrdersView {
  status?: OrderStatus;
  cursor?: string;
}

export function ordersView(read: (name: string) => string | undefined): OrdersView {
  const status = read("status");
  return {
    status: (ORDER_STATUSES as readonly string[]).includes(status ?? "") ? (status as OrderStatus) : undefined,
    cursor: cursorParam(read("cursor")),
  };
}

export function ordersHref(view: OrdersView, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ ...(view.status ? { status: view.status } : {}), ...(view.cursor ? { cursor: view.cursor } : {}), ...extra });
  const text = query.toString();
  return text ? `${ORDERS_PATH}?${text}` : ORDERS_PATH;
}
