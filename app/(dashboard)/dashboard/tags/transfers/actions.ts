"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { formText } from "@/components/forms/form-state";
import { requireUserContext } from "@/lib/auth/page-context";
import { DomainError, NotFoundError } from "@/lib/services/errors";
import { acceptTransfer, declineTransfer } from "@/lib/services/tags/transfers";

const PATH = "/dashboard/tags/transfers";

/** Accept or decline an incoming transfer; the answer comes back as a notice on the list (post/redirect/get). */
async function respond(formData: FormData, answer: "accept" | "decline"): Promise<never> {
  const ctx = await requireUserContext(PATH);
  const id = z.uuid().safeParse(formText(formData, "transferId"));
  let query: string;
  try {
    if (!id.success) throw new NotFoundError();
    const transfer = answer === "accept" ? await acceptTransfer(ctx, id.data) : await declineTransfer(ctx, id.data);
    query = answer === "accept" ? `notice=accepted&tag=${transfer.tagId}` : "notice=declined";
  } catch (error) {
    if (!(error instanceof DomainError) || error.code === "INTERNAL_ERROR") throw error;
    // A code, never the message: the page maps it to its own text, so a crafted link cannot make it say anything.
    query = `notice=failed&reason=${encodeURIComponent(error.code)}`;
  }
  revalidatePath("/dashboard/tags", "layout");
  redirect(`${PATH}?${query}`);
}

export async function acceptTransferAction(formData: FormData): Promise<void> {
  await respond(formData, "accept");
}

export async function declineTransferAction(formData: FormData): Promise<void> {
  await respond(formData, "decline");
}
