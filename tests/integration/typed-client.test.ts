import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiClient, type ApiClient } from "@/examples/client/client";
import type { components } from "@/examples/client/schema";
import { appFetch } from "../support/app-fetch";
import { uniqueEmail, TEST_PASSWORD } from "../support/auth";
import { mintTestTags } from "../support/tags";

/**
 * The example client (examples/client: openapi-fetch over the types generated from the OpenAPI document)
 * against the real route handlers: each Request it builds is handed to the app's own route.ts in-process.
 * If the document and the handlers disagreed on a path, a parameter or a body, this would not compile or
 * would fail here.
 */
describe("the typed client (openapi-fetch + openapi-typescript) against the real handlers", () => {
  const baseUrl = "http://localhost:3000";
  let fetch: (request: Request) => Promise<Response>;
  let api: ApiClient;
  let email: string;

  beforeAll(async () => {
    fetch = await appFetch();
    email = uniqueEmail("typed-client");
    const registered = await createApiClient({ baseUrl, fetch }).POST("/api/v1/auth/register", {
      body: { email, password: TEST_PASSWORD, firstName: "Grace", lastName: "Hopper" },
    });
    expect(registered.response.status).toBe(201);
    api = createApiClient({ baseUrl, fetch, accessToken: registered.data!.data.accessToken });
  });

  it("signs in and reads the account, typed from the document", async () => {
    const login = await createApiClient({ baseUrl, fetch }).POST("/api/v1/auth/login", { body: { email, password: TEST_PASSWORD } });
    expect(login.error).toBeUndefined();
    expect(login.data?.data.user.email).toBe(email);

    const me = await api.GET("/api/v1/auth/me");
    expect(me.response.status).toBe(200);
    expect(me.data?.data.firstName).toBe("Grace");
  });

  it("claims a tag, lists it with query parameters and reads it by its path parameter", async () => {
    const [minted] = await mintTestTags(1);
    const activated = await api.POST("/api/v1/tags/activate", {
      params: { header: { "Idempotency-Key": randomUUID() } },
      body: { code: minted!.code, tagType: "PET", itemName: "Rex's collar" },
    });
    expect(activated.response.status).toBe(201);
    const tag = activated.data!.data;
    expect(tag.status).toBe("PENDING_SETUP");

    const list = await api.GET("/api/v1/tags", { params: { query: { page: 1, limit: 10, tagType: "PET" } } });
    expect(list.data?.meta.total).toBe(1);
    expect(list.data?.data.map((item) => item.id)).toEqual([tag.id]);

    const one = await api.GET("/api/v1/tags/{id}", { params: { path: { id: tag.id } } });
    expect(one.data?.data.itemName).toBe("Rex's collar");
  });

  it("types the error envelope: a 404's code, a 400's field details", async () => {
    const missing = await api.GET("/api/v1/tags/{id}", { params: { path: { id: randomUUID() } } });
    expect(missing.response.status).toBe(404);
    expect(missing.data).toBeUndefined();
    expect(missing.error?.error.code).toBe("NOT_FOUND");

    const invalid = await api.PATCH("/api/v1/auth/me", { body: { firstName: "", lastName: "Hopper", phone: null } });
    expect(invalid.response.status).toBe(400);
    expect(invalid.error?.error.code).toBe("VALIDATION_ERROR");
    // openapi-fetch types `error` as any of the operation's error bodies; a 400's is the ValidationErrorEnvelope.
    const details = invalid.error?.error.details as components["schemas"]["ValidationDetails"] | undefined;
    expect(Object.keys(details?.fieldErrors ?? {})).toContain("firstName");
  });

  it("is refused without a credential, as the document says", async () => {
    const anonymous = createApiClient({ baseUrl, fetch });
    const tags = await anonymous.GET("/api/v1/tags");
    expect(tags.response.status).toBe(401);
    expect(tags.error?.error.code).toBe("UNAUTHORIZED");
  });
});
