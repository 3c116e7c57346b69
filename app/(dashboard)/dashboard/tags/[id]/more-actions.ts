"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { errorState, formError, formSuccess, invalidFields } from "@/components/forms/action-result";
import { formText, type FormState } from "@/components/forms/form-state";
import { requireUserContext } from "@/lib/auth/page-context";
import { NotFoundError, RateLimitError } from "@/lib/services/errors";
import { deleteInsurance, saveInsurance } from "@/lib/services/tags/insurance";
import { cancelTransfer, createTransfer } from "@/lib/services/tags/transfers";

async function tagContext(formData: FormData) {
  const id = z.uuid().safeParse(formText(formData, "tagId"));
  const path = id.success ? `/dashboard/tags/${id.data}` : "/dashboard/tags";
  const ctx = await requireUserContext(path);
  return { ctx, id: id.success ? id.data : null, path };
}

const transferForm = z.object({ email: z.string().trim().min(1, "Enter the new owner's e-mail address.").pipe(z.email("Must be a valid e-mail address.")) });

function transferCapMessage(retryAfterSeconds: number): string {
  const hours = Math.ceil(retryAfterSeconds / 3600);
  const wait = hours <= 1 ? "in an hour" : `in ${hours} hours`;
  return `Too many transfer offers today, from you or to this address. Please try again ${wait}.`;
}

/** POST /tags/:id/transfer: offers the tag to an e-mail address for 7 days. */
export async function sendTransferAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const { ctx, id, path } = await tagContext(formData);
  const values = { email: formText(formData, "email") };
  if (!id) return errorState(new NotFoundError(), values);
  const parsed = transferForm.safeParse(values);
  if (!parsed.success) return invalidFields(parsed.error, values);
  try {
    await createTransfer(ctx, id, parsed.data);
  } catch (error) {
    // The daily caps wait hours, not the minutes the generic "too many attempts" text counts in.
    if (error instanceof RateLimitError) return formError(transferCapMessage(error.retryAfterSeconds), values);
    return errorState(error, values);
  }
  revalidatePath(path);
  redirect(`${path}?notice=transfer-sent#transfer-heading`);
}

/** DELETE /tags/:id/transfer. */
export async function cancelTransferAction(formData: FormData): Promise<void> {
  const { ctx, id, path } = await tagContext(formData);
  let notice = "transfer-cancelled";
  try {
    if (!id) throw new NotFoundError();
    await cancelTransfer(ctx, id);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    notice = "transfer-missing";
  }
  revalidatePath(path);
  redirect(`${path}?notice=${notice}#transfer-heading`);
}

const insuranceFields = ["provider", "policyNumber", "coverageAmount", "currency", "validUntil", "contactPhone"] as const;

const insuranceForm = z.object({
  provider: z.string().trim().min(1, "Required.").max(100, "At most 100 characters."),
  policyNumber: z.string().trim().min(1, "Required.").max(100, "At most 100 characters."),
  coverageAmount: z
    .string()
    .trim()
    .refine((value) => value === "" || /^\d+(\.\d{1,3})?$/.test(value), "An amount like 2500 or 2500.50.")
    .transform((value) => (value === "" ? null : Number(value))),
  currency: z
    .string()
    .trim()
    .refine((value) => value === "" || /^[A-Za-z]{3}$/.test(value), "A three-letter currency code, such as USD.")
    .transform((value) => (value === "" ? undefined : value.toUpperCase())),
  validUntil: z
    .string()
    .trim()
    .refine((value) => value === "" || z.iso.date().safeParse(value).success, "A date.")
    .transform((value) => (value === "" ? null : value)),
  contactPhone: z
    .string()
    .trim()
    .max(50, "At most 50 characters.")
    .transform((value) => (value === "" ? null : value)),
});

/** POST /tags/:id/insurance: creates or replaces the record. */
export async function saveInsuranceAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const { ctx, id, path } = await tagContext(formData);
  const values = Object.fromEntries(insuranceFields.map((name) => [name, formText(formData, name)]));
  if (!id) return errorState(new NotFoundError(), values);
  const parsed = insuranceForm.safeParse(values);
  if (!parsed.success) return invalidFields(parsed.error, values);
  try {
    await saveInsurance(ctx, id, parsed.data);
  } catch (error) {
    return errorState(error, values);
  }
  revalidatePath(path);
  return formSuccess("The insurance details are saved.", values);
}

/** DELETE /tags/:id/insurance. */
export async function deleteInsuranceAction(formData: FormData): Promise<void> {
  const { ctx, id, path } = await tagContext(formData);
  let notice = "insurance-deleted";
  try {
    if (!id) throw new NotFoundError();
    await deleteInsurance(ctx, id);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    notice = "insurance-missing";
  }
  revalidatePath(path);
  redirect(`${path}?notice=${notice}#insurance-heading`);
}
