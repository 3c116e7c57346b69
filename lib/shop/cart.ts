/**
 * The shopping cart as the browser keeps it (localStorage): pure functions over its lines, shared by the
 * header's count, the product page's "Add to cart" and the cart page. What a line remembers of the
 * product (name, price, picture) is for showing it; the order's prices and total come from the server.
 */
export interface CartLine {
  productId: string;
  variantId: string | null;
  quantity: number;
  slug: string;
  name: string;
  variantName: string | null;
  /** Unit price in major units when added: an estimate, refreshed from the catalogue on the cart page. */
  unitPrice: number;
  currency: string;
  image: string | null;
}

export const CART_STORAGE_KEY = "tag-service:cart:v1";
export const MAX_LINE_QUANTITY = 100;
export const MAX_CART_LINES = 20;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function lineKey(line: Pick<CartLine, "productId" | "variantId">): string {
  return `${line.productId}:${line.variantId ?? ""}`;
}

export function clampQuantity(quantity: number): number {
  if (!Number.isFinite(quantity)) return 1;
  return Math.min(MAX_LINE_QUANTITY, Math.max(1, Math.trunc(quantity)));
}

function validLine(value: unknown): CartLine | null {
  if (!value || typeof value !== "object") return null;
  const line = value as Record<string, unknown>;
  if (typeof line.productId !== "string" || !UUID.test(line.productId)) return null;
  if (line.variantId !== null && line.variantId !== undefined && (typeof line.variantId !== "string" || !UUID.test(line.variantId))) return null;
  if (typeof line.quantity !== "number" || typeof line.name !== "string" || typeof line.slug !== "string") return null;
  return {
    productId: line.productId,
    variantId: typeof line.variantId === "string" ? line.variantId : null,
    quantity: clampQuantity(line.quantity),
    slug: line.slug,
    name: line.name,
    variantName: typeof line.variantName === "string" ? line.variantName : null,
    unitPrice: typeof line.unitPrice === "number" && Number.isFinite(line.unitPrice) ? line.unitPrice : 0,
    currency: typeof line.currency === "string" ? line.currency : "USD",
    image: typeof line.image === "string" ? line.image : null,
  };
}

/** The stored cart; anything unreadable (another version, a hand edit) is dropped rather than trusted. */
export function parseCart(raw: string | null): CartLine[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return [];
    const lines = value.map(validLine).filter((line): line is CartLine => line !== null);
    const seen = new Set<string>();
    return lines.filter((line) => !seen.has(lineKey(line)) && seen.add(lineKey(line))).slice(0, MAX_CART_LINES);
  } catch {
    return [];
  }
}

/** Adds a line, or more of the same product and variant. */
export function addLine(lines: readonly CartLine[], line: CartLine): CartLine[] {
  const key = lineKey(line);
  const existing = lines.find((candidate) => lineKey(candidate) === key);
  if (existing) return lines.map((candidate) => (candidate === existing ? { ...line, quantity: clampQuantity(existing.quantity + line.quantity) } : candidate));
  return [...lines, { ...line, quantity: clampQuantity(line.quantity) }].slice(-MAX_CART_LINES);
}

export function setLineQuantity(lines: readonly CartLine[], key: string, quantity: number): CartLine[] {
  return lines.map((line) => (lineKey(line) === key ? { ...line, quantity: clampQuantity(quantity) } : line));
}

export function removeLine(lines: readonly CartLine[], key: string): CartLine[] {
  return lines.filter((line) => lineKey(line) !== key);
}

/** Units in the cart, for the header's count. */
export function cartCount(lines: readonly CartLine[]): number {
  return lines.reduce((sum, line) => sum + line.quantity, 0);
}

/** The estimate in major units, summed in cents so 3 × 9.99 is 29.97. */
export function estimateTotal(lines: readonly { unitPrice: number; quantity: number }[]): number {
  return lines.reduce((sum, line) => sum + Math.round(line.unitPrice * 100) * line.quantity, 0) / 100;
}

/** The order request's items, as POST /orders takes them. */
export function orderItems(lines: readonly CartLine[]): { productId: string; quantity: number; variantId?: string }[] {
  return lines.map((line) => ({ productId: line.productId, quantity: line.quantity, ...(line.variantId ? { variantId: line.variantId } : {}) }));
}
