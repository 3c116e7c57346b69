"use client";

import { useActionState, useId, useRef } from "react";
import { FieldErrorList, fieldDescriptionIds, inputClass, TextField } from "@/components/forms/field";
import { FormResultAlerts } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusOnResult } from "@/components/forms/use-focus-on-result";
import { tagTypeLabels, tagTypes } from "@/components/tags/labels";
import { fieldError, idleFormState, type FormState } from "@/lib/forms/form-state";
import { createProductAction, updateProductAction } from "./actions";
import { EMPTY_VARIANT_ROWS } from "./product-form";

/** A product as the editor starts from: images and variant images as stored (app paths or https URLs). */
export interface EditableProduct {
  id: string;
  name: string;
  slug: string;
  description: string;
  price: number;
  currency: string;
  images: string[];
  variants: { id: string; name: string; price: number; image: string | null }[];
  stock: number;
  reserved: number;
  tagPack: number;
  tagType: string;
  active: boolean;
  sortOrder: number;
}

/**
 * The product editor, for a new product or an existing one. The variant rows are the product's own plus a
 * few empty ones (each existing row has a Remove box), so it works without JavaScript; a refused save keeps
 * what was typed and shows each message beside its field.
 */
export function ProductEditor({ product, pictures }: { product?: EditableProduct; pictures: readonly string[] }) {
  const [state, formAction] = useActionState<FormState, FormData>(product ? updateProductAction : createProductAction, idleFormState);
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();
  useFocusOnResult(formRef, state);
  const values = state.values;
  const text = (name: string, fallback: string) => values?.[name] ?? fallback;
  const pickedImages = values ? values.images?.split("\n").filter(Boolean) ?? [] : (product?.images ?? []);
  const otherImages = values ? (values.otherImages ?? "") : (product?.images ?? []).filter((image) => !pictures.includes(image)).join("\n");
  const rows = [...(product?.variants ?? []), ...Array.from({ length: EMPTY_VARIANT_ROWS }, () => null)];
  const imageErrors = fieldError(state, "images");
  const label = product ? `Edit ${product.name}` : "New product";

  return (
    <form ref={formRef} action={formAction} aria-label={label} className="flex flex-col gap-5" noValidate>
      <FormResultAlerts state={state} otherErrors={[]} />
      {product ? <input type="hidden" name="productId" value={product.id} /> : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField id={`${id}-name`} name="name" label="Name" maxLength={100} defaultValue={text("name", product?.name ?? "")} errors={fieldError(state, "name")} />
        <TextField
          id={`${id}-slug`}
          name="slug"
          label="Slug"
          hint="The product's address in the shop: lower-case letters, digits and hyphens. Left blank, it is made from the name."
          maxLength={100}
          spellCheck={false}
          autoCapitalize="none"
          defaultValue={text("slug", product?.slug ?? "")}
          errors={fieldError(state, "slug")}
        />
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-description`} className="text-sm font-semibold text-ink">
          Description <span className="font-normal text-muted">(optional)</span>
        </label>
        <FieldErrorList id={`${id}-description-error`} errors={fieldError(state, "description")} />
        <textarea
          id={`${id}-description`}
          name="description"
          rows={3}
          maxLength={2000}
          className={inputClass}
          aria-invalid={fieldError(state, "description") ? true : undefined}
          aria-describedby={fieldDescriptionIds(`${id}-description`, false, Boolean(fieldError(state, "description")))}
          defaultValue={text("description", product?.description ?? "")}
        />
      </div>
      <div className="grid gap-5 sm:grid-cols-3">
        <TextField id={`${id}-price`} name="price" label="Price" hint="In major units, like 14.99." inputMode="decimal" defaultValue={text("price", product ? String(product.price) : "")} errors={fieldError(state, "price")} />
        <TextField
          id={`${id}-currency`}
          name="currency"
          label="Currency"
          hint="Three letters, like USD."
          maxLength={3}
          autoCapitalize="characters"
          defaultValue={text("currency", product?.currency ?? "USD")}
          errors={fieldError(state, "currency")}
        />
        <TextField
          id={`${id}-stock`}
          name="stock"
          label="Stock"
          hint={product ? `Units on the shelf; unpaid orders hold ${product.reserved}.` : "Units on the shelf."}
          inputMode="numeric"
          defaultValue={text("stock", String(product?.stock ?? 0))}
          errors={fieldError(state, "stock")}
        />
      </div>
      <div className="grid gap-5 sm:grid-cols-3">
        <TextField
          id={`${id}-tag-pack`}
          name="tagPack"
          label="Tags per unit"
          hint="Tags a paid unit adds to the buyer's account; 0 for other goods."
          inputMode="numeric"
          defaultValue={text("tagPack", String(product?.tagPack ?? 0))}
          errors={fieldError(state, "tagPack")}
        />
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-tag-type`} className="text-sm font-semibold text-ink">
            Tag type
          </label>
          <FieldErrorList id={`${id}-tag-type-error`} errors={fieldError(state, "tagType")} />
          <select id={`${id}-tag-type`} name="tagType" defaultValue={text("tagType", product?.tagType ?? "GENERAL")} className={inputClass}>
            {tagTypes.map((type) => (
              <option key={type} value={type}>
                {tagTypeLabels[type]}
              </option>
            ))}
          </select>
        </div>
        <TextField
          id={`${id}-sort`}
          name="sortOrder"
          label="Position in the shop"
          hint="Lower first; 0 to 10000."
          inputMode="numeric"
          defaultValue={text("sortOrder", String(product?.sortOrder ?? 0))}
          errors={fieldError(state, "sortOrder")}
        />
      </div>

      <fieldset className="flex flex-col gap-3" aria-describedby={imageErrors ? `${id}-images-error` : undefined}>
        <legend className="text-sm font-semibold text-ink">Images</legend>
        <FieldErrorList id={`${id}-images-error`} errors={imageErrors} />
        <ul className="grid grid-cols-2 gap-2 sm:grid-cols-5">
          {pictures.map((picture) => (
            <li key={picture}>
              <label className="flex h-full cursor-pointer flex-col items-center gap-1 rounded-lg border border-line bg-white p-2 text-xs text-ink has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
                {/* eslint-disable-next-line @next/next/no-img-element -- small static SVGs from /public */}
                <img src={picture} alt="" width={64} height={64} className="h-16 w-16 object-contain" />
                <span className="flex items-center gap-1.5 break-all">
                  <input type="checkbox" name="images" value={picture} defaultChecked={pickedImages.includes(picture)} className="h-4 w-4 shrink-0" />
                  {picture.replace("/products/", "")}
                </span>
              </label>
            </li>
          ))}
        </ul>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-other-images`} className="text-sm font-semibold text-ink">
            Other images <span className="font-normal text-muted">(optional)</span>
          </label>
          <p id={`${id}-other-images-hint`} className="text-sm text-muted">
            One per line: an app path starting with / or an https URL. Ten images at most.
          </p>
          <textarea id={`${id}-other-images`} name="otherImages" rows={2} className={inputClass} aria-describedby={`${id}-other-images-hint`} spellCheck={false} defaultValue={otherImages} />
        </div>
      </fieldset>

      <fieldset className="flex flex-col gap-3">
        <legend className="text-sm font-semibold text-ink">Variants</legend>
        <p className="text-sm text-muted">Optional: each has its own name and price. Blank rows are ignored; save to get more empty rows.</p>
        <ul className="flex flex-col gap-3">
          {rows.map((variant, row) => {
            const nameErrors = fieldError(state, `variant-name-${row}`);
            const priceErrors = fieldError(state, `variant-price-${row}`);
            return (
              <li key={variant?.id ?? `new-${row}`} className="grid gap-3 rounded-lg border border-line p-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end">
                {variant ? <input type="hidden" name={`variant-id-${row}`} value={variant.id} /> : null}
                {variant?.image ? <input type="hidden" name={`variant-image-${row}`} value={variant.image} /> : null}
                <TextField
                  id={`${id}-variant-name-${row}`}
                  name={`variant-name-${row}`}
                  label={`Variant ${row + 1} name`}
                  maxLength={100}
                  defaultValue={text(`variant-name-${row}`, variant?.name ?? "")}
                  errors={nameErrors}
                />
                <TextField
                  id={`${id}-variant-price-${row}`}
                  name={`variant-price-${row}`}
                  label={`Variant ${row + 1} price`}
                  inputMode="decimal"
                  defaultValue={text(`variant-price-${row}`, variant ? String(variant.price) : "")}
                  errors={priceErrors}
                />
                {variant ? (
                  <label className="flex min-h-11 items-center gap-2 text-sm text-ink">
                    <input type="checkbox" name={`variant-remove-${row}`} defaultChecked={values?.[`variant-remove-${row}`] === "on"} className="h-5 w-5" />
                    Remove
                  </label>
                ) : (
                  <span aria-hidden="true" />
                )}
              </li>
            );
          })}
        </ul>
      </fieldset>

      <label className="flex items-center gap-2 text-sm font-semibold text-ink">
        <input type="checkbox" name="active" defaultChecked={values ? values.active === "on" : (product?.active ?? true)} className="h-5 w-5" />
        Active (shown in the shop and can be ordered)
      </label>
      <div>
        <SubmitButton pendingLabel="Saving…" className="w-full sm:w-auto">
          {product ? "Save the product" : "Create the product"}
        </SubmitButton>
      </div>
    </form>
  );
}
