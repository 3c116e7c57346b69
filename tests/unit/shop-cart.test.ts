import { describe, expect, it } from "vitest";
import { addLine, cartCount, estimateTotal, lineKey, orderItems, parseCart, removeLine, setLineQuantity, type CartLine } from "@/lib/shop/cart";
import { productImagePath } from "@/lib/shop/image-path";

const P1 = "5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11";
const P2 = "0b5c3a52-9a7e-4a8e-8d0f-4d7f3e2a1b90";
const V1 = "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f";

function line(overrides: Partial<CartLine> = {}): CartLine {
  return { productId: P1, variantId: null, quantity: 1, slug: "qr-tag", name: "QR tag", variantName: null, unitPrice: 9.99, currency: "USD", image: null, ...overrides };
}

describe("the cart", () => {
  it("adds to the same line for the same product and variant, a new line otherwise", () => {
    let lines = addLine([], line());
    lines = addLine(lines, line({ quantity: 2 }));
    lines = addLine(lines, line({ variantId: V1, variantName: "Black" }));
    expect(lines.map((l) => [lineKey(l), l.quantity])).toEqual([
      [`${P1}:`, 3],
      [`${P1}:${V1}`, 1],
    ]);
    expect(cartCount(lines)).toBe(4);
  });

  it("keeps quantities between 1 and 100", () => {
    const lines = addLine([line({ quantity: 90 })], line({ quantity: 50 }));
    expect(lines[0]!.quantity).toBe(100);
    expect(setLineQuantity(lines, `${P1}:`, 0)[0]!.quantity).toBe(1);
    expect(setLineQuantity(lines, `${P1}:`, 2.7)[0]!.quantity).toBe(2);
  });

  it("removes a line and estimates the total in cents", () => {
    const lines = [line({ quantity: 3 }), line({ productId: P2, unitPrice: 0.1, quantity: 3 })];
    expect(estimateTotal(lines)).toBe(30.27);
    expect(removeLine(lines, `${P2}:`)).toHaveLength(1);
  });

  it("reads back what it stored, and drops anything it cannot trust", () => {
    const stored = JSON.stringify([line({ variantId: V1 }), { productId: "not-a-uuid", quantity: 1, name: "x", slug: "x" }, line({ variantId: V1 }), "junk"]);
    expect(parseCart(stored)).toEqual([line({ variantId: V1 })]);
    expect(parseCart("{not json")).toEqual([]);
    expect(parseCart(JSON.stringify({ lines: [] }))).toEqual([]);
    expect(parseCart(null)).toEqual([]);
  });

  it("turns into the order request's items", () => {
    expect(orderItems([line({ quantity: 2 }), line({ variantId: V1 })])).toEqual([
      { productId: P1, quantity: 2 },
      { productId: P1, quantity: 1, variantId: V1 },
    ]);
  });
});

describe("productImagePath", () => {
  it("links the app's own pictures by path and leaves other pictures alone", () => {
    expect(productImagePath("http://localhost:3000/products/qr-tag.svg", "http://localhost:3000/")).toBe("/products/qr-tag.svg");
    expect(productImagePath("https://cdn.example.com/a.png", "http://localhost:3000")).toBe("https://cdn.example.com/a.png");
    expect(productImagePath("http://localhost:30000/x.svg", "http://localhost:3000")).toBe("http://localhost:30000/x.svg");
  });
});
