import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { Breadcrumb } from "@/components/site/breadcrumb";
import { AddToCart } from "@/components/shop/add-to-cart";
import { packText, StockBadge } from "@/components/shop/product-card";
import { optionalUserContext } from "@/lib/http/page-context";
import { env } from "@/lib/env";
import { getProductBySlug, type ProductRecord } from "@/lib/services/orders";
import { NotFoundError } from "@/lib/services/errors";
import { productImagePath } from "@/lib/shop/image-path";

type Props = { params: Promise<{ slug: string }> };

/** The product, or the 404 page for a slug the shop does not sell (unknown, inactive or malformed). */
const loadProduct = cache(async (slug: string): Promise<ProductRecord> => {
  if (!/^[a-z0-9-]{1,100}$/.test(slug)) notFound();
  try {
    return await getProductBySlug(await optionalUserContext(), slug);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const product = await loadProduct((await params).slug);
  const description = product.description.slice(0, 200) || `${product.name} from the shop.`;
  return {
    title: product.name,
    description,
    alternates: { canonical: `/shop/${product.slug}` },
    openGraph: { title: product.name, description, type: "website", url: `/shop/${product.slug}`, images: product.images.slice(0, 1).map((url) => ({ url, alt: product.name })) },
  };
}

export default async function ProductPage({ params }: Props) {
  const product = await loadProduct((await params).slug);
  const images = [...new Set([...product.images, ...product.variants.flatMap((variant) => (variant.image ? [variant.image] : []))])].map((url) => productImagePath(url, env.APP_URL));
  const pack = packText(product.tagPack);

  return (
    <div className="container-page py-6 sm:py-10">
      <Breadcrumb parent={{ href: "/shop", label: "Shop" }} current={product.name} />
      <div className="mt-5 grid gap-8 lg:grid-cols-2">
        <div>
          {images.length > 0 ? (
            <ul aria-label={`Pictures of ${product.name}`} className="grid grid-cols-2 gap-3">
              {images.map((src, index) => (
                <li key={src} className={index === 0 ? "col-span-2" : undefined}>
                  {/* eslint-disable-next-line @next/next/no-img-element -- the app's own small SVGs or an admin's https picture */}
                  <img src={src} alt={`${product.name}, picture ${index + 1} of ${images.length}`} className="aspect-[4/3] w-full rounded-xl border border-line bg-white object-contain p-4" />
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <div className="flex flex-col gap-5">
          <div>
            <h1 className="text-3xl font-bold tracking-tight text-ink">{product.name}</h1>
            <div className="mt-3">
              <StockBadge inStock={product.inStock} />
            </div>
          </div>
          <p className="whitespace-pre-line text-ink">{product.description}</p>
          {pack ? (
            <section aria-labelledby="pack-heading" className="rounded-xl border border-line bg-canvas p-4">
              <h2 id="pack-heading" className="font-semibold text-ink">
                What you get
              </h2>
              <p className="mt-1 text-sm text-muted">
                {product.tagPack === 1
                  ? "Each one you buy adds 1 tag to your account once paid, ready to set up."
                  : `Each pack adds ${pack} to your account once paid, each ready to set up for a different item.`}
              </p>
            </section>
          ) : null}
          <AddToCart
            product={{
              id: product.id,
              slug: product.slug,
              name: product.name,
              price: product.price,
              currency: product.currency,
              image: images[0] ?? null,
              inStock: product.inStock,
              variants: product.variants.map((variant) => ({ ...variant, image: variant.image ? productImagePath(variant.image, env.APP_URL) : null })),
            }}
          />
          <noscript>
            <p className="text-sm text-muted">The cart needs JavaScript turned on.</p>
          </noscript>
        </div>
      </div>
    </div>
  );
}
