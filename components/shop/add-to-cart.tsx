"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { formatMoney } from "@/lib/i18n/money";
import { addLine, MAX_LINE_QUANTITY } from "@/lib/shop/cart";
import { updateCart } from "./cart-store";

export interface AddToCartProduct {
  id: string;
  slug: string;
  name: string;
  price: number;
  currency: string;
  image: string | null;
  inStock: boolean;
  variants: { id: string; name: string; price: number; image: string | null }[];
}

/**
 * Variant (one of them; the price follows it), quantity and "Add to cart", which keeps the line in this
 * browser's cart. The picture shown follows the variant too, through `onVariant`.
 */
export function AddToCart({ product }: { product: AddToCartProduct }) {
  const id = useId();
  const [variantId, setVariantId] = useState<string | null>(product.variants[0]?.id ?? null);
  const [quantity, setQuantity] = useState(1);
  const [added, setAdded] = useState<number | null>(null);
  const variant = product.variants.find((candidate) => candidate.id === variantId) ?? null;
  const unitPrice = variant?.price ?? product.price;
  const pricesDiffer = new Set(product.variants.map((option) => option.price)).size > 1;

  return (
    <form
      className="flex flex-col gap-5"
      onSubmit={(event) => {
        event.preventDefault();
        const units = Math.min(MAX_LINE_QUANTITY, Math.max(1, Math.trunc(quantity) || 1));
        updateCart((lines) =>
          addLine(lines, {
            productId: product.id,
            variantId: variant?.id ?? null,
            quantity: units,
            slug: product.slug,
            name: product.name,
            variantName: variant?.name ?? null,
            unitPrice,
            currency: product.currency,
            image: variant?.image ?? product.image,
          }),
        );
        setAdded(units);
      }}
    >
      <p className="text-3xl font-bold text-ink" aria-live="polite">
        <span className="sr-only">Price: </span>
        {formatMoney(unitPrice, product.currency)}
      </p>
      {product.variants.length > 0 ? (
        <fieldset>
          <legend className="text-sm font-semibold text-ink">Choose one</legend>
          <div className="mt-2 flex flex-wrap gap-2">
            {product.variants.map((option) => (
              <label key={option.id} className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-slate-500 bg-white px-4 has-checked:border-brand-700 has-checked:bg-brand-50 has-checked:font-semibold has-focus-visible:outline-3 has-focus-visible:outline-brand-700">
                <input type="radio" name="variant" value={option.id} checked={variantId === option.id} onChange={() => setVariantId(option.id)} className="h-4 w-4 accent-brand-700" />
                <span>
                  {option.name}
                  {pricesDiffer ? <span className="text-muted"> · {formatMoney(option.price, product.currency)}</span> : null}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-quantity`} className="text-sm font-semibold text-ink">
          Quantity
        </label>
        <input
          id={`${id}-quantity`}
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_LINE_QUANTITY}
          value={quantity}
          onChange={(event) => setQuantity(Number(event.target.value))}
          className="min-h-11 w-24 rounded-lg border border-slate-500 bg-white px-3 py-2 text-base text-ink"
        />
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <button type="submit" className="btn-primary" disabled={!product.inStock}>
          {product.inStock ? "Add to cart" : "Out of stock"}
        </button>
        {added !== null ? (
          <p role="status" className="text-sm text-green-900">
            Added {added} to your cart.{" "}
            <Link href="/shop/cart" className="font-semibold text-brand-700 underline">
              View cart
            </Link>
          </p>
        ) : null}
      </div>
    </form>
  );
}
