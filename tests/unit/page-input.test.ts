import { describe, expect, it } from "vitest";
import { z } from "zod";
import { tagEndpoints } from "@/lib/http/endpoints/tags";
import { errorNotice, pageParams, pageQuery } from "@/lib/http/page-input";
import { reportStatusSchema } from "@/lib/services/reports";

const ID = "5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11";

describe("pageParams", () => {
  it("reads a page's path params through the endpoint's params schema", async () => {
    await expect(pageParams(tagEndpoints.get, Promise.resolve({ id: ID }))).resolves.toEqual({ id: ID });
    await expect(pageParams(tagEndpoints.get, { tagId: ID }, { names: { id: "tagId" } })).resolves.toEqual({ id: ID });
  });

  it("answers what route() answers 404 for with the 404 page, or the page's own way", async () => {
    await expect(pageParams(tagEndpoints.get, { id: "not-a-uuid" })).rejects.toMatchObject({ digest: "NEXT_HTTP_ERROR_FALLBACK;404" });
    await expect(pageParams(tagEndpoints.get, { id: ["x"] })).rejects.toMatchObject({ digest: "NEXT_HTTP_ERROR_FALLBACK;404" });
    const otherwise = (): never => {
      throw new Error("elsewhere");
    };
    await expect(pageParams(tagEndpoints.get, { id: "" }, { otherwise })).rejects.toThrow("elsewhere");
  });
});

describe("pageQuery", () => {
  it("keeps the values the endpoint's query schema accepts and drops the others, field by field", () => {
    expect(pageQuery(tagEndpoints.list, { status: "LOST", type: "PET" }, { tagType: "type" })).toMatchObject({ status: "LOST", tagType: "PET" });
    const query = pageQuery(tagEndpoints.list, { status: "nonsense", type: ["PET", "KEY"] }, { tagType: "type" });
    expect(query.status).toBeUndefined();
    expect(query.tagType).toBe("PET");
  });

  it("takes a page's own fields and a reader function (a form's echo of the query)", () => {
    const fields = { status: reportStatusSchema.or(z.literal("ALL")) };
    expect(pageQuery(fields, (name) => ({ status: "ALL" })[name])).toEqual({ status: "ALL" });
    expect(pageQuery(fields, () => "")).toEqual({});
    expect(pageQuery(fields, { status: "CLOSED?" })).toEqual({});
  });
});

describe("errorNotice", () => {
  it("maps an error code to the page's notice, and nothing else", () => {
    const notice = errorNotice({ NOT_FOUND: "missing", CONFLICT: "taken" });
    expect(notice({ code: "NOT_FOUND" })).toBe("missing");
    expect(notice({ code: "INTERNAL_ERROR" })).toBeUndefined();
  });
});
