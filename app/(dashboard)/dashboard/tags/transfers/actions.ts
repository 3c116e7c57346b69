"use server";

import { revalidatePath } from "next/cache";
import { rowAction } from "@/lib/forms/action";
import { transferEndpoints } from "@/lib/http/endpoints/transfers";
import { acceptTransfer, declineTransfer } from "@/lib/services/tags";

const PATH = "/dashboard/tags/transfers";

/** Accept or decline an incoming transfer; the answer comes back as a notice on the list (post/redirect/get). */
function respond(answer: "accept" | "decline"): (formData: FormData) => Promise<void> {
  return rowAction.for(
    answer === "decline" ? transferEndpoints.declineTransfer : transferEndpoints.acceptTransfer,
    {
      fields: { id: "transferId" },
      returnTo: PATH,
      // A code, never the message: the page maps it to its own text, so a crafted link cannot make it say anything.
      onError: (error) => (error.code === "INTERNAL_ERROR" ? undefined : `${PATH}?notice=failed&reason=${encodeURIComponent(error.code)}`),
      revalidate: () => revalidatePath("/dashboard/tags", "layout"),
    },
    async ({ ctx, params }) => {
      if (answer === "decline") {
        await declineTransfer(ctx, params.id);
        return `${PATH}?notice=declined`;
      }
      const transfer = await acceptTransfer(ctx, params.id);
      return `${PATH}?notice=accepted&tag=${transfer.tagId}`;
    },
  );
}

export const acceptTransferAction: (formData: FormData) => Promise<void> = respond("accept");
export const declineTransferAction: (formData: FormData) => Promise<void> = respond("decline");
