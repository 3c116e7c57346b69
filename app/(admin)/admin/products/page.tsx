import { AdminHeading } from "@/components/admin/list-filters";
import type { Metadata } from "next";
import { Pager, pageParam } from "@/components/dashboard/pager";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { FormAlert } from "@/components/forms/form-alert";
import { shippedProductPictures } from "@/components/shop/product-pictures";
import { tagTypeLabels } from "@/components/tags/labels";
import { env } from "@/lib/env";
import { formatMoney } from "@/lib/i18n/money";
import { listAdminProducts, type AdminProductRecord } from "@/lib/services/orders";
import { requireAdminContext } from "../admin-context";
import { ProductEditor, type EditableProduct } from "./product-editor";

export const metadata: Metadata = { title: "Products" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const PER_PAGE = 20;
const PRODUCTS_PATH = "/admin/products";

/** The API answers images as absolute URLs; the editor edits them as stored (an app path, or an https URL elsewhere). */
function storedRef(url: string): string {
  const base = env.APP_URL.replace(/\/+$/, "");
  return url.startsWith(`${base}/`) ? url.slice(base.length) : url;
}

function editable(product: AdminProductRecord): EditableProduct {
  return {
    ...product,
    images: product.images.map(storedRef),
    variants: product.variants.map((variant) => ({ ...variant, image: variant.image ? storedRef(variant.image) : null })),
  };
}

/** The catalogue, active and inactive, with a new-product editor and each product's own. */
export default async function AdminProductsPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireAdminContext(PRODUCTS_PATH);
  const params = await searchParams;
  const page = pageParam(params.page);
  const { items, total } = await listAdminProducts(ctx, { page, limit: PER_PAGE });
  const totalPages = Math.max(1, Math.ceil(total / PER_PAGE));
  const read = (name: string) => {
    const value = params[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const saved = items.find((product) => product.id === read("product"));
  const notice = { created: "is created", saved: "is saved" }[read("notice") ?? ""];

  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <AdminHeading title="Products" intro="The shop's catalogue. Inactive products stay here but are not shown or sold." />
      {notice ? <FormAlert tone="success" title={saved ? `“${saved.name}” ${notice}.` : `The product ${notice}.`} /> : null}

      <details className="rounded-xl border border-line bg-white p-5 shadow-sm" open={total === 0}>
        <summary className="min-h-11 cursor-pointer py-2 text-lg font-semibold text-brand-700">New product</summary>
        <div className="mt-4">
          <ProductEditor pictures={shippedProductPictures} />
        </div>
      </details>

      <p className="text-sm text-muted" role="status">
        {total === 0 ? "No products yet." : `${total} ${total === 1 ? "product" : "products"}${totalPages > 1 ? `, page ${page} of ${totalPages}` : ""}.`}
      </p>

      {items.length ? (
        <ul aria-label="Products" className="flex flex-col gap-4">
          {items.map((product) => (
            <ProductCard key={product.id} product={product} />
          ))}
        </ul>
      ) : null}

      <Pager page={page} totalPages={totalPages} href={(n) => `${PRODUCTS_PATH}?page=${n}`} label="Product pages" className="" />
    </div>
  );
}

function ProductCard({ product }: { product: AdminProductRecord }) {
  const headingId = `product-${product.id}`;
  return (
    <li id={headingId} aria-labelledby={`${headingId}-name`} className="flex scroll-mt-6 flex-col gap-3 rounded-xl border border-line bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-start gap-4">
        {product.images[0] ? (
          // eslint-disable-next-line @next/next/no-img-element -- the product's own picture, any origin it was given
          <img src={product.images[0]} alt="" width={56} height={56} className="h-14 w-14 shrink-0 rounded-lg border border-line object-contain" />
        ) : null}
        <div className="flex min-w-0 grow flex-col gap-1">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id={`${headingId}-name`} className="text-lg font-semibold break-words text-ink">
              {product.name}
            </h2>
            <StatusBadge
              status={product.active ? "ACTIVE" : "INACTIVE"}
              label={product.active ? "Active" : "Inactive"}
              tone={product.active ? "border-green-700 bg-green-50 text-green-900" : "border-slate-500 bg-slate-100 text-slate-800"}
              kind="Shop status"
            />
          </div>
          <p className="font-mono text-sm break-all text-muted">/{product.slug}</p>
        </div>
      </div>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-semibold text-ink">Price</dt>
        <dd className="text-ink">
          {formatMoney(product.price, product.currency)}
          {product.variants.length ? ` · ${product.variants.length} ${product.variants.length === 1 ? "variant" : "variants"}` : ""}
        </dd>
        <dt className="font-semibold text-ink">Stock</dt>
        <dd className="text-muted">
          {product.stock} on the shelf, {product.reserved} held by unpaid orders
        </dd>
        <dt className="font-semibold text-ink">Tags</dt>
        <dd className="text-muted">{product.tagPack ? `${product.tagPack} × ${tagTypeLabels[product.tagType]} per unit` : "Not a tag product"}</dd>
      </dl>
      <details className="border-t border-line pt-3">
        <summary className="min-h-11 cursor-pointer py-2 font-semibold text-brand-700">Edit</summary>
        <div className="mt-4">
          <ProductEditor product={editable(product)} pictures={shippedProductPictures} />
        </div>
      </details>
    </li>
  );
}
