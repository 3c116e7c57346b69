import { formText } from "@/lib/forms/form-state";

/** Empty variant rows the editor offers below the product's own (the form works without JavaScript). */
export const EMPTY_VARIANT_ROWS = 2;

const NUMBER = /^\d+(\.\d+)?$/;

/** A number field: a plain decimal becomes a number; blank is not given; anything else stays text for the schema to refuse. */
function numberField(formData: FormData, name: string): number | string | undefined {
  const text = formText(formData, name).trim();
  if (text === "") return undefined;
  return NUMBER.test(text) ? Number(text) : text;
}

/** The variant rows the form sent (`variant-name-<row>` …), skipping blank rows and rows marked for removal; with the row each came from. */
export function variantRows(formData: FormData) {
  const rows: { row: number; value: { id?: string; name: string; price: number | string | undefined; image?: string | null } }[] = [];
  for (let row = 0; row < 40; row++) {
    if (!formData.has(`variant-name-${row}`)) continue;
    const name = formText(formData, `variant-name-${row}`).trim();
    const price = numberField(formData, `variant-price-${row}`);
    if (formText(formData, `variant-remove-${row}`) === "on") continue;
    if (!name && price === undefined) continue;
    const id = formText(formData, `variant-id-${row}`) || undefined;
    const image = formText(formData, `variant-image-${row}`) || null;
    rows.push({ row, value: { ...(id ? { id } : {}), name, price, image } });
  }
  return rows;
}

/** The pictures ticked in the picker, then the other images typed one per line. */
export function imageRefs(formData: FormData): string[] {
  const picked = formData.getAll("images").filter((value): value is string => typeof value === "string");
  const typed = formText(formData, "otherImages")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  return [...new Set([...picked, ...typed])];
}

/** The editor's fields as the product schemas take them (create and update alike). */
export function productFormInput(formData: FormData, slugWhenBlank: (name: string) => string | undefined): Record<string, unknown> {
  const name = formText(formData, "name").trim();
  const slug = formText(formData, "slug").trim();
  const input: Record<string, unknown> = {
    name,
    slug: slug || slugWhenBlank(name),
    description: formText(formData, "description"),
    price: numberField(formData, "price"),
    currency: formText(formData, "currency").trim() || undefined,
    images: imageRefs(formData),
    variants: variantRows(formData).map((row) => row.value),
    stock: numberField(formData, "stock") ?? 0,
    tagPack: numberField(formData, "tagPack") ?? 0,
    tagType: formText(formData, "tagType") || undefined,
    active: formText(formData, "active") === "on",
    sortOrder: numberField(formData, "sortOrder") ?? 0,
  };
  for (const key of Object.keys(input)) if (input[key] === undefined) delete input[key];
  return input;
}

/** Schema paths (`variants.1.price`) → the form's input names (`variant-price-<row>`), for the rows this form sent. */
export function productFieldMap(formData: FormData): Record<string, string> {
  const map: Record<string, string> = { otherImages: "images" };
  variantRows(formData).forEach(({ row }, index) => {
    map[`variants.${index}.name`] = `variant-name-${row}`;
    map[`variants.${index}.price`] = `variant-price-${row}`;
    map[`variants.${index}.id`] = `variant-name-${row}`;
    map[`variants.${index}.image`] = `variant-name-${row}`;
  });
  return map;
}

/** Every text the form sent, to put back after a refusal (the picker's ticks joined by new lines). */
export function productFormValues(formData: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const key of new Set(formData.keys())) {
    if (key.startsWith("$") || key === "images") continue;
    values[key] = formText(formData, key);
  }
  values.images = formData
    .getAll("images")
    .filter((value): value is string => typeof value === "string")
    .join("\n");
  values.active = formText(formData, "active") === "on" ? "on" : "";
  return values;
}
