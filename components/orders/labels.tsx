import { StatusBadge } from "@/components/dashboard/status-badge";
import type { OrderRecord } from "@/lib/services/orders";

const GREEN = "border-green-700 bg-green-50 text-green-900";
const BLUE = "border-brand-700 bg-brand-50 text-brand-900";
const AMBER = "border-reward-800 bg-reward-50 text-reward-800";
const GREY = "border-slate-500 bg-canvas text-ink";
const RED = "border-danger-700 bg-danger-50 text-danger-700";

export const orderStatusText: Record<OrderRecord["status"], { label: string; tone: string }> = {
  PENDING: { label: "Awaiting payment", tone: AMBER },
  CONFIRMED: { label: "Confirmed", tone: GREEN },
  PROCESSING: { label: "Being prepared", tone: BLUE },
  SHIPPED: { label: "Shipped", tone: BLUE },
  DELIVERED: { label: "Delivered", tone: GREEN },
  CANCELLED: { label: "Cancelled", tone: GREY },
  REFUNDED: { label: "Refunded", tone: GREY },
};

export const paymentStatusText: Record<OrderRecord["paymentStatus"], { label: string; tone: string }> = {
  PENDING: { label: "Not paid yet", tone: AMBER },
  PROCESSING: { label: "Refund in progress", tone: BLUE },
  COMPLETED: { label: "Paid", tone: GREEN },
  FAILED: { label: "Payment failed", tone: RED },
  REFUNDED: { label: "Refunded", tone: GREY },
  PARTIALLY_REFUNDED: { label: "Partly refunded", tone: GREY },
};

export function OrderStatusBadge({ status }: { status: OrderRecord["status"] }) {
  const { label, tone } = orderStatusText[status];
  return <StatusBadge status={status} label={label} tone={tone} kind="Order status" />;
}

/**
 * PROCESSING means a refund under way once money was taken (`paid`), and a payment still in flight at the
 * provider before that (a bank debit that takes days): the badge says which.
 */
export function PaymentStatusBadge({ status, paid = true }: { status: OrderRecord["paymentStatus"]; paid?: boolean }) {
  const { label, tone } = status === "PROCESSING" && !paid ? { label: "Payment in progress", tone: BLUE } : paymentStatusText[status];
  return <StatusBadge status={status} label={label} tone={tone} kind="Payment" />;
}

/** "3 items" for a list row. */
export function itemCount(order: Pick<OrderRecord, "items">): string {
  const units = order.items.reduce((sum, item) => sum + item.quantity, 0);
  return units === 1 ? "1 item" : `${units} items`;
}
