import type { Metadata } from "next";
import Link from "next/link";
import { pageParam, Pager } from "@/components/dashboard/pager";
import { ProductCard } from "@/components/shop/product-card";
import { optionalUserContext } from "@/lib/http/page-context";
import { env } from "@/lib/env";
import { listProducts } from "@/lib/services/orders";
import { productImagePath } from "@/lib/shop/image-path";

export const metadata: Metadata = {
  title: "Shop",
  description: "QR and NFC tags for pets, bags, bikes, keys and phones, single or in packs. Every tag joins your account ready to set up.",
  openGraph: { title: "Shop QR and NFC tags", type: "website" },
};

const PAGE_SIZE = 24;

/** The catalogue, rendered on the server from the same service as GET /orders/products: browsing needs no JavaScript. */
export default async function ShopPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const page = pageParam((await searchParams).page);
  const { items, total } = await listProducts(await optionalUserContext(), { page, limit: PAGE_SIZE });
  const totalPages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <div className="container-page py-8 sm:py-12">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">Shop</h1>
          <p className="mt-2 max-w-2xl text-muted">Tags for everything you would miss. Each tag you buy joins your account, ready to set up, as soon as you have paid.</p>
        </div>
        <Link href="/shop/cart" className="btn-secondary">
          View cart
        </Link>
      </div>
      {items.length === 0 ? (
        <p className="mt-10 rounded-xl border border-line bg-white p-6 text-muted">The shop has nothing for sale right now. Please come back soon.</p>
      ) : (
        <ul aria-label="Products" className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {items.map((product) => (
            <ProductCard key={product.id} product={product} image={product.images[0] ? productImagePath(product.images[0], env.APP_URL) : null} />
          ))}
        </ul>
      )}
      <Pager page={page} totalPages={totalPages} href={(n) => `/shop?page=${n}`} label="Catalogue pages" />
    </div>
  );
}
