import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldShape, formInput } from "@/lib/forms/form-input";
import { insuranceInputSchema, mintTagsInput } from "@/lib/services/tags/schemas";

function form(entries: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) for (const item of [value].flat()) data.append(name, item);
  return data;
}

describe("fieldShape", () => {
  it("sees through optional, nullable, default, transforms and pipes", () => {
    expect(fieldShape(z.string().trim().max(5).nullable().optional())).toMatchObject({ kind: "text", nullable: true, optional: true, format: false });
    expect(fieldShape(z.email().transform((value) => value.toLowerCase()))).toMatchObject({ kind: "text", format: true });
    expect(fieldShape(z.int().min(1).default(3))).toMatchObject({ kind: "number", optional: true });
    expect(fieldShape(z.enum(["A", "B"]))).toMatchObject({ kind: "text" });
    expect(fieldShape(z.boolean().refine(Boolean))).toMatchObject({ kind: "boolean" });
    expect(fieldShape(z.array(z.string()))).toMatchObject({ kind: "array", element: { kind: "text" } });
    expect(fieldShape(z.union([z.literal(""), z.iso.date()]))).toMatchObject({ kind: "text" });
  });
});

describe("formInput", () => {
  const schema = z.object({
    name: z.string().trim().min(1),
    note: z.string().nullable().optional(),
    nickname: z.string().optional(),
    email: z.email(),
    count: z.int(),
    amount: z.number().nullable().optional(),
    agree: z.boolean(),
    tags: z.array(z.string()),
  });

  it("reads text without control characters, trimming only formatted fields", () => {
    const input = formInput(schema, form({ name: " Ada\u0000 ", email: "  ada@example.com ", count: "3", agree: "on", tags: ["a\u0007", "b"] }));
    expect(input).toEqual({ name: " Ada ", email: "ada@example.com", count: 3, agree: true, tags: ["a", "b"] });
  });

  it("turns blank optional fields into null (nullable) or undefined, and keeps blank required ones", () => {
    const input = formInput(schema, form({ name: "  ", note: " ", nickname: "", amount: "", email: "", count: "" }));
    expect(input).toEqual({ name: "  ", note: null, amount: null, email: "", count: "", agree: false, tags: [] });
  });

  it("leaves non-numbers as text so the schema's own message answers them", () => {
    expect(formInput(schema, form({ count: "12.5", amount: "2500.50" }))).toMatchObject({ count: 12.5, amount: 2500.5 });
    expect(formInput(schema, form({ count: "1e3", amount: "-5" }))).toMatchObject({ count: "1e3", amount: "-5" });
    const parsed = z.object({ count: z.int("Enter a whole number.") }).safeParse(formInput(z.object({ count: z.int() }), form({ count: "lots" })));
    expect(parsed.error?.issues[0]?.message).toBe("Enter a whole number.");
  });

  it("reads a checkbox as true only when sent as on or true", () => {
    const checkbox = z.object({ agree: z.boolean() });
    expect(formInput(checkbox, form({ agree: "true" }))).toEqual({ agree: true });
    expect(formInput(checkbox, form({ agree: "yes" }))).toEqual({ agree: false });
    expect(formInput(checkbox, form({}))).toEqual({ agree: false });
  });

  it("ignores fields the schema does not name, and works through refinements", () => {
    const refined = z.object({ a: z.string(), b: z.string() }).refine((value) => value.a === value.b);
    expect(formInput(refined, form({ a: "x", b: "x", extra: "y" }))).toEqual({ a: "x", b: "x" });
  });

  it("feeds an endpoint's own schema: the insurance form", () => {
    const parsed = insuranceInputSchema.safeParse(formInput(insuranceInputSchema, form({ provider: "Acme", policyNumber: "P-1", coverageAmount: "2500.50", currency: "", validUntil: "", contactPhone: "" })));
    expect(parsed.data).toEqual({ provider: "Acme", policyNumber: "P-1", coverageAmount: 2500.5, validUntil: null, contactPhone: null });
    const invalid = insuranceInputSchema.safeParse(formInput(insuranceInputSchema, form({ provider: "", policyNumber: "P-1", coverageAmount: "lots" })));
    expect(z.flattenError(invalid.error!).fieldErrors).toMatchObject({ provider: ["Required."], coverageAmount: ["An amount like 2500 or 2500.50."] });
  });

  it("reads a count the way the mint form always did", () => {
    const read = (count: string) => mintTagsInput.safeParse(formInput(mintTagsInput, form({ count, tagType: "" })));
    expect(read(" 12 ").data).toEqual({ count: 12 });
    for (const bad of ["", "lots", "1.5", "-3", "1e3"]) expect(read(bad).error?.issues[0]?.message).toBe("Enter a whole number from 1 to 1000.");
    expect(read("0").error?.issues[0]?.message).toBe("At least 1.");
    expect(read("1001").error?.issues[0]?.message).toBe("At most 1000 at a time.");
  });
});
