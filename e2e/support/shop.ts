import { apiData, bearerApi, type RequestFactory } from "./finder";
import { e2eAdmin } from "./server-env";

export interface Product {
  id: string;
  name: string;
  slug: string;
}

/** The seeded admin's access token, for setting up what a test needs through the admin API. */
export async function adminAccessToken(playwright: RequestFactory): Promise<string> {
  const admin = await bearerApi(playwright, async (api) => apiData<{ accessToken: string }>(await api.post("/api/v1/auth/login", { data: { email: e2eAdmin.email, password: e2eAdmin.password } }), 200));
  return admin.accessToken;
}

/** The e2e server has no demo catalogue: the seeded admin adds the product through the admin API. */
export async function createProduct(playwright: RequestFactory, overrides: Record<string, unknown>): Promise<Product> {
  const admin = { accessToken: await adminAccessToken(playwright) };
  return bearerApi(playwright, async (api) =>
    apiData<Product>(
      await api.post("/api/v1/admin/products", {
        data: { description: "Five weatherproof QR tags. Each one joins your account, ready to set up for a different item.", images: ["/products/pack-5.svg"], stock: 20, tagPack: 5, ...overrides },
        headers: { Authorization: `Bearer ${admin.accessToken}` },
      }),
      201,
    ),
  );
}

