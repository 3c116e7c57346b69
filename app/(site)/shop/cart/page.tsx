import type { Metadata } from "next";
import { currentUserContext, optionalUserContext } from "@/lib/http/page-context";
import { env } from "@/lib/env";
import { lastShippingAddress, listProducts } from "@/lib/services/orders";
import { productImagePath } from "@/lib/shop/image-path";
import { CartView, type CatalogueEntry } from "./cart-view";

export const metadata: Metadata = { title: "Your cart", robots: { index: false, follow: false } };

/**
 * The cart lives in the browser (it survives a reload and needs no account); this page brings the
 * catalogue as it is now, so the lines show today's prices, what is out of stock and what is no
 * longer sold. The order's own total comes from the server when it is placed.
 */
export default async function CartPage() {
  const [signedIn, ctx] = await Promise.all([currentUserContext().then(Boolean), optionalUserContext()]);
  const [{ items }, saved] = await Promise.all([listProducts(ctx, { page: 1, limit: 100 }), signedIn ? lastShippingAddress(ctx) : null]);
  const savedAddress = saved
    ? Object.fromEntries(Object.entries({ name: saved.name, line1: saved.line1, line2: saved.line2, city: saved.city, state: saved.state, postalCode: saved.postalCode, country: saved.country }).filter((entry): entry is [string, string] => typeof entry[1] === "string"))
    : null;
  const catalogue: CatalogueEntry[] = items.map((product) => ({
    id: product.id,
    slug: product.slug,
    name: product.name,
    price: product.price,
    currency: product.currency,
    inStock: product.inStock,
    tagPack: product.tagPack,
    image: product.images[0] ? productImagePath(product.images[0], env.APP_URL) : null,
    variants: product.variants.map((variant) => ({ id: variant.id, name: variant.name, price: variant.price, image: variant.image ? productImagePath(variant.image, env.APP_URL) : null })),
  }));

  return (
    <div className="container-page py-6 sm:py-10">
      <h1 className="text-3xl font-bold tracking-tight text-ink">Your cart</h1>
      <CartView catalogue={catalogue} signedIn={signedIn} savedAddress={savedAddress} />
    </div>
  );
}
