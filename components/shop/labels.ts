import type { ORDER_STATUSES, PAYMENT_STATUSES } from "@/lib/services/orders";

type OrderStatus = (typeof ORDER_STATUSES)[number];
type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const orderStatusLabels: Record<OrderStatus, string> = {
  PENDING: "Pending payment",
  CONFIRMED: "Confirmed",
  PROCESSING: "Processing",
  SHIPPED: "Shipped",
  DELIVERED: "Delivered",
  CANCELLED: "Cancelled",
  REFUNDED: "Refunded",
};

/** Tones with AA contrast on white and on their own background. */
export const orderStatusTones: Record<OrderStatus, string> = {
  PENDING: "border-amber-700 bg-amber-50 text-amber-900",
  CONFIRMED: "border-brand-700 bg-brand-50 text-brand-900",
  PROCESSING: "border-indigo-700 bg-indigo-50 text-indigo-900",
  SHIPPED: "border-sky-800 bg-sky-50 text-sky-900",
  DELIVERED: "border-green-700 bg-green-50 text-green-900",
  CANCELLED: "border-slate-500 bg-slate-100 text-slate-800",
  REFUNDED: "border-slate-500 bg-slate-100 text-slate-800",
};

export const paymentStatusLabels: Record<PaymentStatus, string> = {
  PENDING: "Not paid",
  PROCESSING: "Refund in progress",
  COMPLETED: "Paid",
  FAILED: "Failed",
  REFUNDED: "Refunded",
  PARTIALLY_REFUNDED: "Partly refunded",
};

export const paymentStatusTones: Record<PaymentStatus, string> = {
  PENDING: "border-slate-500 bg-white text-slate-800",
  PROCESSING: "border-amber-700 bg-amber-50 text-amber-900",
  COMPLETED: "border-green-700 bg-green-50 text-green-900",
  FAILED: "border-danger-700 bg-danger-50 text-danger-700",
  REFUNDED: "border-slate-500 bg-slate-100 text-slate-800",
  PARTIALLY_REFUNDED: "border-slate-500 bg-slate-100 text-slate-800",
};
