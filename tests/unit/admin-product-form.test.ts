import { describe, expect, it } from "vitest";
import { createProductInput } from "@/lib/services/orders/schemas";
import { fieldErrorsFor } from "@/lib/forms/action";
import { imageRefs, productFieldMap, productFormInput, productFormValues } from "@/app/(admin)/admin/products/product-form";

function form(entries: [string, string][]): FormData {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

describe("the admin product editor's form", () => {
  it("reads the fields as the product schema takes them, skipping blank and removed variant rows", () => {
    const data = form([
      ["name", " Pet tag "],
      ["slug", ""],
      ["description", "Tough."],
      ["price", "14.99"],
      ["currency", "eur"],
      ["images", "/products/qr-tag.svg"],
      ["otherImages", "https://cdn.example.com/a.png\n\n/products/qr-tag.svg"],
      ["variant-id-0", "0b5c3a52-9a7e-4a8e-8d0f-4d7f3e2a1b90"],
      ["variant-name-0", "Blue"],
      ["variant-price-0", "15"],
      ["variant-image-0", "/products/pet-collar-tag.svg"],
      ["variant-id-1", "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f"],
      ["variant-name-1", "Red"],
      ["variant-price-1", "15"],
      ["variant-remove-1", "on"],
      ["variant-name-2", ""],
      ["variant-price-2", ""],
      ["stock", "40"],
      ["tagPack", "1"],
      ["tagType", "PET"],
      ["active", "on"],
    ]);
    const input = productFormInput(data, () => undefined);
    expect(input).toEqual({
      name: "Pet tag",
      description: "Tough.",
      price: 14.99,
      currency: "eur",
      images: ["/products/qr-tag.svg", "https://cdn.example.com/a.png"],
      variants: [{ id: "0b5c3a52-9a7e-4a8e-8d0f-4d7f3e2a1b90", name: "Blue", price: 15, image: "/products/pet-collar-tag.svg" }],
      stock: 40,
      tagPack: 1,
      tagType: "PET",
      active: true,
      sortOrder: 0,
    });
    expect(createProductInput.safeParse(input).success).toBe(true);
    expect(productFormInput(form([["name", "Pet tag"]]), (name) => name.toLowerCase().replace(/ /g, "-")).slug).toBe("pet-tag");
    expect(productFormInput(form([["name", "x"]]), () => undefined).active).toBe(false);
  });

  it("names a refused variant row's own fields, wherever the row sits", () => {
    const data = form([
      ["name", "Tag"],
      ["price", "abc"],
      ["variant-name-0", ""],
      ["variant-price-0", ""],
      ["variant-name-1", "Green"],
      ["variant-price-1", "1.234"],
    ]);
    const parsed = createProductInput.safeParse(productFormInput(data, () => undefined));
    expect(parsed.success).toBe(false);
    const errors = fieldErrorsFor(parsed.error!, productFieldMap(data));
    expect(Object.keys(errors).sort()).toEqual(["price", "variant-price-1"]);
  });

  it("echoes what was typed, the picker's ticks on lines of their own", () => {
    const data = form([
      ["name", "Tag"],
      ["images", "/products/a.svg"],
      ["images", "/products/b.svg"],
      ["$ACTION_ID_x", ""],
    ]);
    expect(productFormValues(data)).toEqual({ name: "Tag", images: "/products/a.svg\n/products/b.svg", active: "" });
    expect(imageRefs(data)).toEqual(["/products/a.svg", "/products/b.svg"]);
  });
});
