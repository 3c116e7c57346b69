"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { action, fieldErrorsFor } from "@/lib/forms/action";
import { formError } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { productEndpoints } from "@/lib/http/endpoints/orders";
import type { DomainError } from "@/lib/services/errors";
import { createProduct, slugify, updateProduct } from "@/lib/services/orders";
import { productFieldMap, productFormInput, productFormValues } from "./product-form";

const PRODUCTS_PATH = "/admin/products";
const CHECK_FIELDS = "Check the fields marked below.";

/** A refused variant row names its own fields, wherever it sits among the rows. */
function invalid(error: z.ZodError, values: Record<string, string> | undefined, formData: FormData): FormState {
  return formError(CHECK_FIELDS, values, fieldErrorsFor(error, productFieldMap(formData)));
}

/** A taken slug (409) belongs beside the slug field; stock below what unpaid orders hold, beside the stock. */
function conflictBesideField(error: DomainError, values: Record<string, string> | undefined): FormState | undefined {
  if (error.code !== "CONFLICT") return undefined;
  const details = error.details as { field?: string; reserved?: number } | undefined;
  const field = details?.field === "slug" ? "slug" : details?.reserved !== undefined ? "stock" : undefined;
  return field ? formError(CHECK_FIELDS, values, { [field]: [error.message] }) : undefined;
}

function savedHref(notice: string, productId: string): string {
  return `${PRODUCTS_PATH}?notice=${notice}&product=${productId}#product-${productId}`;
}

/** POST /admin/products: the slug comes from the name when left blank. */
export const createProductAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  productEndpoints.adminCreate,
  {
    returnTo: PRODUCTS_PATH,
    read: (formData) => productFormInput(formData, () => undefined),
    values: productFormValues,
    onInvalid: invalid,
    onError: conflictBesideField,
  },
  async ({ ctx, input }) => {
    const product = await createProduct(ctx, input);
    revalidatePath(PRODUCTS_PATH);
    redirect(savedHref("created", product.id));
  },
);

/** PATCH /admin/products/:id with every field of the editor (variants: the whole list; a blank slug is the name's). */
export const updateProductAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  productEndpoints.adminUpdate,
  {
    fields: { id: "productId" },
    returnTo: PRODUCTS_PATH,
    read: (formData) => productFormInput(formData, (name) => (name ? slugify(name) : undefined)),
    values: productFormValues,
    onInvalid: invalid,
    onError: conflictBesideField,
  },
  async ({ ctx, params, input }) => {
    const product = await updateProduct(ctx, params.id, input);
    revalidatePath(PRODUCTS_PATH);
    redirect(savedHref("saved", product.id));
  },
);
