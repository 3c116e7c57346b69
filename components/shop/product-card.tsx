import Link from "next/link";
import { formatMoney } from "@/lib/i18n/money";
import type { ProductRecord } from "@/lib/services/orders";

/** "From $9.99" when variants differ in price, else the one price. */
export function priceText(product: Pick<ProductRecord, "price" | "currency" | "variants">): string {
  const prices = product.variants.length ? product.variants.map((variant) => variant.price) : [product.price];
  const lowest = Math.min(...prices);
  const text = formatMoney(lowest, product.currency);
  return new Set(prices).size > 1 ? `From ${text}` : text;
}

/** What a pack adds to the buyer's account: "5 tags", "1 tag", nothing for other goods. */
export function packText(tagPack: number): string | null {
  if (tagPack <= 0) return null;
  return tagPack === 1 ? "1 tag" : `${tagPack} tags`;
}

export function StockBadge({ inStock }: { inStock: boolean }) {
  return inStock ? (
    <span className="inline-flex items-center rounded-full border border-green-700 bg-green-50 px-2.5 py-0.5 text-xs font-semibold text-green-900">In stock</span>
  ) : (
    <span className="inline-flex items-center rounded-full border border-slate-500 bg-canvas px-2.5 py-0.5 text-xs font-semibold text-ink">Out of stock</span>
  );
}

/** The first sentence of a description (or its first 140 characters), for a card. */
export function shortDescription(description: string): string {
  const sentence = description.match(/^.*?[.!?](\s|$)/)?.[0]?.trim() ?? description;
  return sentence.length > 140 ? `${sentence.slice(0, 137).trimEnd()}…` : sentence;
}

/** A catalogue card: the whole card is the product's link (its name), the picture decorative. */
export function ProductCard({ product, image }: { product: ProductRecord; image: string | null }) {
  const pack = packText(product.tagPack);
  return (
    <li className="relative flex flex-col overflow-hidden rounded-xl border border-line bg-white shadow-sm focus-within:ring-3 focus-within:ring-brand-700">
      <div className="aspect-[4/3] bg-canvas">
        {image ? (
          // eslint-disable-next-line @next/next/no-img-element -- the app's own small SVGs or an admin's https picture; nothing to optimise
          <img src={image} alt="" className="h-full w-full object-contain p-4" loading="lazy" />
        ) : (
          <ProductPicturePlaceholder />
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h2 className="text-lg font-semibold text-ink">
          <Link href={`/shop/${product.slug}`} className="after:absolute after:inset-0 focus:outline-none">
            {product.name}
          </Link>
        </h2>
        <p className="text-sm text-muted">{shortDescription(product.description)}</p>
        <div className="mt-auto flex flex-wrap items-center justify-between gap-2 pt-2">
          <p className="text-lg font-bold text-ink">
            {priceText(product)}
            {pack ? <span className="ml-2 text-sm font-normal text-muted">{pack}</span> : null}
          </p>
          <StockBadge inStock={product.inStock} />
        </div>
      </div>
    </li>
  );
}

/**
 * Stands in for a product without a picture: a tag drawn on the brand's tint, so the card still looks
 * finished rather than an empty grey block. Decorative, like the picture it replaces.
 */
export function ProductPicturePlaceholder() {
  return (
    <div data-testid="product-placeholder" aria-hidden="true" className="flex h-full w-full items-center justify-center bg-gradient-to-br from-brand-50 to-white">
      <svg viewBox="0 0 64 64" className="h-20 w-20 text-brand-700" fill="none" stroke="currentColor" strokeWidth="3" strokeLinejoin="round" strokeLinecap="round">
        <path d="M8 12v18l26 26 22-22L30 8H12a4 4 0 0 0-4 4z" fill="white" />
        <circle cx="20" cy="20" r="4" />
        <path d="M30 32l6 6M36 26l6 6" />
      </svg>
    </div>
  );
}
