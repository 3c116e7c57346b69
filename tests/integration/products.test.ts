import { describe, expect, it } from "vitest";
import { GET as listRoute } from "@/app/api/v1/orders/products/route";
import { GET as getRoute } from "@/app/api/v1/orders/products/[slug]/route";
import { GET as adminListRoute, POST as adminCreateRoute } from "@/app/api/v1/admin/products/route";
import { PATCH as adminUpdateRoute } from "@/app/api/v1/admin/products/[id]/route";
import type { AdminProductRecord, ProductRecord } from "@/lib/services/orders";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, awayFromWindowEdge, call, json, nextTestIp } from "../support/http";
import { adminAccount, createTestProduct, errorOf, MISSING_ID, ok, placeTestOrder } from "../support/shop";

const list = (query = "", ip = nextTestIp()) => call(listRoute, apiRequest(`/api/v1/orders/products${query}`, { ip }));
const bySlug = (slug: string) => call(getRoute, apiRequest(`/api/v1/orders/products/${slug}`, { ip: nextTestIp() }), { slug });
const adminCreate = (account: TestAccount | null, body: unknown) =>
  call(adminCreateRoute, apiRequest("/api/v1/admin/products", { method: "POST", headers: account ? bearer(account.accessToken) : {}, body }));
const adminUpdate = (account: TestAccount | null, id: string, body: unknown) =>
  call(adminUpdateRoute, apiRequest(`/api/v1/admin/products/${id}`, { method: "PATCH", headers: account ? bearer(account.accessToken) : {}, body }), { id });
const adminList = (account: TestAccount, query = "") => call(adminListRoute, apiRequest(`/api/v1/admin/products${query}`, { headers: bearer(account.accessToken) }));

describe("admin products", () => {
  it("creates a product with variants; prices in major units, slug from the name, images absolute on APP_URL", async () => {
    const admin = await adminAccount();
    const created = await ok<AdminProductRecord>(
      await adminCreate(admin, {
        name: "Bike Tag (Steel) ",
        description: "For bikes.",
        price: 12.5,
        currency: "usd",
        images: ["/products/qr-tag.svg", "https://cdn.example.com/bike.png"],
        variants: [
          { name: "Silver", price: 12.5, image: "/products/qr-tag.svg" },
          { name: "Gold", price: 15 },
        ],
        stock: 7,
        tagPack: 2,
        tagType: "VEHICLE",
        // Never taken from a body:
        reserved: 5,
        id: MISSING_ID,
      }),
      201,
    );
    expect(created).toMatchObject({
      name: "Bike Tag (Steel)",
      slug: "bike-tag-steel",
      price: 12.5,
      currency: "USD",
      images: ["http://localhost:3000/products/qr-tag.svg", "https://cdn.example.com/bike.png"],
      stock: 7,
      reserved: 0,
      inStock: true,
      tagPack: 2,
      tagType: "VEHICLE",
      active: true,
    });
    expect(created.id).not.toBe(MISSING_ID);
    expect(created.variants.map((v) => [v.name, v.price, v.image])).toEqual([
      ["Silver", 12.5, "http://localhost:3000/products/qr-tag.svg"],
      ["Gold", 15, null],
    ]);
    const publicView = await ok<ProductRecord>(await bySlug("bike-tag-steel"));
    expect(publicView).not.toHaveProperty("stock");
    expect(publicView).not.toHaveProperty("reserved");
    expect(publicView.variants).toHaveLength(2);
  });

  it("refuses a taken slug (409), bad prices and fields (400), and non-admins (401/403)", async () => {
    const admin = await adminAccount();
    const product = await createTestProduct(admin);
    expect(await errorOf(await adminCreate(admin, { name: "Other", slug: product.slug, price: 5 }))).toMatchObject({ status: 409, code: "CONFLICT" });
    // "cart" is the shop's own page (/shop/cart): given, or derived from the name, it is refused.
    expect(await errorOf(await adminCreate(admin, { name: "Other", slug: "cart", price: 5 }))).toMatchObject({ status: 409, code: "CONFLICT", details: { field: "slug" } });
    expect(await errorOf(await adminCreate(admin, { name: "Cart", price: 5 }))).toMatchObject({ status: 409, code: "CONFLICT" });
    for (const body of [
      { name: "x", price: -1 },
      { name: "x", price: 0 },
      { name: "x", price: 1.001 },
      { name: "x", price: 100_001 },
      { name: "x", price: "5" },
      { name: "", price: 5 },
      { name: "x".repeat(101), price: 5 },
      { name: "x", price: 5, currency: "DOLLARS" },
      { name: "x", price: 5, slug: "Not A Slug" },
      { name: "x", price: 5, images: ["javascript:alert(1)"] },
      { name: "x", price: 5, images: ["//evil.example/x.png"] },
      { name: "x", price: 5, stock: -1 },
      { name: "x", price: 5, tagPack: 1.5 },
      { name: "x", price: 5, description: "d".repeat(2001) },
      { price: 5 },
    ]) {
      const error = await errorOf(await adminCreate(admin, body));
      expect(error, JSON.stringify(body)).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
      expect(error.details).toHaveProperty("issues");
      expect(error.details).toHaveProperty("fieldErrors");
    }
    expect((await errorOf(await adminCreate(null, { name: "x", price: 5 }))).status).toBe(401);
    const user = await registerAccount();
    expect(await errorOf(await adminCreate(user, { name: "x", price: 5 }))).toMatchObject({ status: 403, code: "FORBIDDEN" });
    expect((await errorOf(await adminUpdate(user, product.id, { price: 1 }))).status).toBe(403);
    expect((await errorOf(await adminUpdate(null, product.id, { price: 1 }))).status).toBe(401);
    expect((await errorOf(await adminList(user))).status).toBe(403);
  });

  it("updates fields and variants (ids kept, new ones added, the rest removed); stock below the reserved units is 409", async () => {
    const admin = await adminAccount();
    const product = await createTestProduct(admin, { variants: [{ name: "Red", price: 9.99 }, { name: "Blue", price: 9.99 }], stock: 10 });
    const [red, blue] = product.variants;
    const updated = await ok<AdminProductRecord>(
      await adminUpdate(admin, product.id, { price: 11, description: "New", variants: [{ id: blue!.id, name: "Navy", price: 10.5 }, { name: "Green", price: 11 }] }),
    );
    expect(updated).toMatchObject({ price: 11, description: "New", name: product.name });
    expect(updated.variants.map((v) => v.name)).toEqual(["Navy", "Green"]);
    expect(updated.variants[0]!.id).toBe(blue!.id);
    expect(updated.variants.some((v) => v.id === red!.id)).toBe(false);

    expect(await errorOf(await adminUpdate(admin, product.id, { variants: [{ id: MISSING_ID, name: "X", price: 1 }] }))).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    const other = await createTestProduct(admin);
    expect(await errorOf(await adminUpdate(admin, product.id, { slug: other.slug }))).toMatchObject({ status: 409, code: "CONFLICT" });
    expect((await errorOf(await adminUpdate(admin, MISSING_ID, { price: 1 }))).status).toBe(404);
    expect((await errorOf(await adminUpdate(admin, "not-a-uuid", { price: 1 }))).status).toBe(404);

    const buyer = await registerAccount();
    await placeTestOrder(buyer, [{ productId: product.id, quantity: 4 }]);
    expect(await errorOf(await adminUpdate(admin, product.id, { stock: 3 }))).toMatchObject({ status: 409, code: "CONFLICT", details: { reserved: 4 } });
    expect((await ok<AdminProductRecord>(await adminUpdate(admin, product.id, { stock: 4 }))).inStock).toBe(false);
  });
});

describe("public catalogue", () => {
  it("lists active products only, paginated, with inStock from what is not reserved", async () => {
    const admin = await adminAccount();
    const before = (await json<{ meta: { total: number } }>(await list())).meta.total;
    const visible = await createTestProduct(admin, { sortOrder: 0, stock: 1 });
    const hidden = await createTestProduct(admin, { active: false });
    const soldOut = await createTestProduct(admin, { stock: 0 });

    const response = await list("?limit=100");
    expect(response.status).toBe(200);
    expect(response.headers.get("X-RateLimit-Limit")).toBe("30");
    const body = await json<{ data: ProductRecord[]; meta: { total: number; page: number; totalPages: number } }>(response);
    expect(body.meta.total).toBe(before + 2);
    const slugs = body.data.map((p) => p.slug);
    expect(slugs).toContain(visible.slug);
    expect(slugs).not.toContain(hidden.slug);
    expect(body.data.find((p) => p.slug === soldOut.slug)!.inStock).toBe(false);
    expect(body.data.find((p) => p.slug === visible.slug)).toMatchObject({ price: 9.99, currency: "USD", inStock: true, images: [] });

    const page = await json<{ data: ProductRecord[]; meta: { total: number; page: number; totalPages: number } }>(await list("?page=2&limit=1"));
    expect(page.data).toHaveLength(1);
    expect(page.meta).toMatchObject({ total: before + 2, page: 2, totalPages: before + 2 });
    for (const query of ["?limit=0", "?limit=101", "?page=0", "?page=x"]) expect((await errorOf(await list(query))).code, query).toBe("VALIDATION_ERROR");

    // An order holding the only unit makes it out of stock for everyone else.
    await placeTestOrder(await registerAccount(), [{ productId: visible.id, quantity: 1 }]);
    expect((await ok<ProductRecord>(await bySlug(visible.slug))).inStock).toBe(false);
    // Admins still see every product.
    const all = await ok<AdminProductRecord[]>(await adminList(admin, "?limit=100"));
    expect(all.map((p) => p.slug)).toContain(hidden.slug);
  });

  it("answers a product by slug; unknown and inactive slugs are 404", async () => {
    const admin = await adminAccount();
    const product = await createTestProduct(admin);
    expect((await ok<ProductRecord>(await bySlug(product.slug))).id).toBe(product.id);
    expect((await errorOf(await bySlug("no-such-product"))).status).toBe(404);
    expect((await errorOf(await bySlug("Bad Slug!"))).status).toBe(404);
    await adminUpdate(admin, product.id, { active: false });
    expect((await errorOf(await bySlug(product.slug))).status).toBe(404);
  });

  it("limits the listing to 30 requests per minute per IP", async () => {
    await awayFromWindowEdge(60_000, 10_000);
    const ip = nextTestIp();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await list("", ip)).status);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    const refused = await list("", ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBeTruthy();
  });
});
