import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { schema } from "@/db/client";
import { SERVICE_NAME } from "@/emails/brand";
import { getUserById } from "@/lib/services/auth";
import { requireUser, type ServiceContext } from "@/lib/services/context";
import { ConflictError, NotFoundError } from "@/lib/services/errors";
import { ORDER_NOT_FOUND } from "./orders";
import { orderItemsOf } from "./queries";
import { appBaseUrl, formatMoney, orderReference } from "./records";
import { countryName } from "@/lib/shop/country-name";
import { escapeHtml } from "@/lib/html-escape";

const day = (date: Date) => new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(date);

/** The invoice's only styling: one inline <style>, allowed by its hash and nothing else. */
const INVOICE_STYLE = `
  body { font: 15px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #1f2937; margin: 0; background: #f3f4f6; }
  main { max-width: 760px; margin: 24px auto; background: #fff; padding: 40px; border: 1px solid #e5e7eb; border-radius: 8px; }
  header { display: flex; justify-content: space-between; gap: 24px; flex-wrap: wrap; }
  h1 { font-size: 28px; margin: 0 0 4px; }
  h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .05em; color: #4b5563; margin: 0 0 4px; }
  .parties { display: flex; gap: 48px; margin: 32px 0; flex-wrap: wrap; }
  .muted { color: #4b5563; }
  table { width: 100%; border-collapse: collapse; margin: 16px 0; }
  th, td { text-align: left; padding: 10px 8px; border-bottom: 1px solid #e5e7eb; vertical-align: top; }
  th { font-size: 13px; color: #4b5563; }
  .num { text-align: right; white-space: nowrap; }
  tfoot td { font-weight: 700; border-bottom: none; }
  .paid { display: inline-block; padding: 2px 10px; border-radius: 999px; background: #dcfce7; color: #166534; font-weight: 600; }
  .refunded { background: #fee2e2; color: #991b1b; }
  footer { margin-top: 32px; font-size: 13px; color: #4b5563; }
  @media print { body { background: #fff; } main { border: none; margin: 0; padding: 0; } }
`;

/**
 * The invoice's own Content-Security-Policy: nothing loads, no script runs, and the one <style> above is
 * allowed by its SHA-256 (not 'unsafe-inline', so markup injected into a user's text could not style
 * itself). The API's static policy must not also reach this response: two policies are both enforced,
 * and its default-src 'none' would block the stylesheet (next.config.ts leaves this path out).
 */
export const INVOICE_CONTENT_SECURITY_POLICY = `default-src 'none'; style-src 'sha256-${createHash("sha256").update(INVOICE_STYLE).digest("base64")}'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'`;

/**
 * GET /orders/:id/invoice: a printable HTML invoice of the caller's paid order (409 before payment;
 * someone else's order is 404): seller, buyer and shipping address, the lines with unit prices, the
 * total (no shipping, no tax line: docs/decisions/0007-money.md), the payment date and reference, and any refund.
 * Every user-provided text is escaped; the document loads nothing from elsewhere.
 */
export async function orderInvoice(ctx: ServiceContext, orderId: string): Promise<string> {
  const { userId } = requireUser(ctx);
  const [order] = await ctx.db
    .select()
    .from(schema.orders)
    .where(and(eq(schema.orders.id, orderId), eq(schema.orders.userId, userId)));
  if (!order) throw new NotFoundError(ORDER_NOT_FOUND);
  if (!order.paidAt) throw new ConflictError("The invoice is available once the order is paid.", { status: order.status, paymentStatus: order.paymentStatus });
  const [invoice] = await ctx.db.select().from(schema.invoices).where(eq(schema.invoices.orderId, order.id));
  const items = (await orderItemsOf(ctx.db, [order.id])).get(order.id) ?? [];
  const buyer = await getUserById(ctx.db, order.userId);
  const reference = orderReference(order.id);
  const number = `INV-${order.paidAt.toISOString().slice(0, 10).replace(/-/g, "")}-${reference}`;
  const money = (minor: number) => escapeHtml(formatMoney(minor, order.currency));
  const address = order.shippingAddress;
  const addressLines = address
    ? [address.name, address.line1, address.line2, [address.city, address.state, address.postalCode].filter(Boolean).join(", "), countryName(address.country)].filter((line): line is string => Boolean(line))
    : [];
  const rows = items
    .map(
      (item) => `<tr><td>${escapeHtml(item.name)}${item.variantName ? ` <span class="muted">(${escapeHtml(item.variantName)})</span>` : ""}${
        item.tagPack > 0 ? `<br><span class="muted">${item.tagPack * item.quantity} tag${item.tagPack * item.quantity === 1 ? "" : "s"}</span>` : ""
      }</td><td class="num">${item.quantity}</td><td class="num">${money(item.unitPriceMinor)}</td><td class="num">${money(item.unitPriceMinor * item.quantity)}</td></tr>`,
    )
    .join("\n");
  const refunded = order.paymentStatus === "REFUNDED" && order.refundedAt;
  const seller = escapeHtml(SERVICE_NAME);
  const site = escapeHtml(appBaseUrl());

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Invoice ${escapeHtml(number)} — ${seller}</title>
<style>${INVOICE_STYLE}</style>
</head>
<body>
<main>
<header>
  <div>
    <h1>Invoice</h1>
    <div class="muted">${escapeHtml(number)}</div>
  </div>
  <div>
    <div><strong>Issued:</strong> ${escapeHtml(day(invoice?.issuedAt ?? order.paidAt))}</div>
    <div><strong>Order:</strong> ${escapeHtml(reference)}</div>
    <div><strong>Paid:</strong> ${escapeHtml(day(order.paidAt))}</div>
    <div><span class="paid${refunded ? " refunded" : ""}">${refunded ? `Refunded ${escapeHtml(day(order.refundedAt!))}` : "Paid"}</span></div>
  </div>
</header>
<section class="parties">
  <div>
    <h2>Seller</h2>
    <div><strong>${seller}</strong></div>
    <div>${site}</div>
  </div>
  <div>
    <h2>Billed to</h2>
    <div><strong>${escapeHtml(`${buyer.firstName} ${buyer.lastName}`.trim())}</strong></div>
    <div>${escapeHtml(buyer.email)}</div>
    ${addressLines.map((line) => `<div>${escapeHtml(line)}</div>`).join("\n    ")}
  </div>
</section>
<table>
  <thead><tr><th>Item</th><th class="num">Qty</th><th class="num">Unit price</th><th class="num">Amount</th></tr></thead>
  <tbody>
${rows}
  </tbody>
  <tfoot>
    <tr><td colspan="3">Shipping</td><td class="num">${money(0)}</td></tr>
    <tr><td colspan="3">Total (${escapeHtml(order.currency)})</td><td class="num">${money(order.totalMinor)}</td></tr>
    ${refunded ? `<tr><td colspan="3">Refunded</td><td class="num">−${money(order.refundedMinor)}</td></tr>` : ""}
  </tfoot>
</table>
<footer>
  <p>Payment reference: ${escapeHtml(order.paymentIntentId ?? order.paymentSessionId ?? "—")}${order.refundId ? ` · Refund: ${escapeHtml(order.refundId)}` : ""}</p>
  <p>Thank you for your order. Questions? Reply to your order confirmation e-mail or visit ${site}.</p>
</footer>
</main>
</body>
</html>
`;
}
