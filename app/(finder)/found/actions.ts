"use server";

import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import type { FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { endpointRateLimits } from "@/lib/http/endpoint";
import { scanEndpoints } from "@/lib/http/endpoints/scans";
import { NotFoundError, ValidationError } from "@/lib/services/errors";
import { activateTagInput, findEncryptedIdByCode } from "@/lib/services/tags";

/**
 * A typed code → the tag's finder page. Counted against the public scan limit, like the page it leads
 * to, which also keeps anyone from trying codes in bulk.
 */
// Plain action(): no endpoint turns a printed code into its finder page, so the input and limits are borrowed piecewise.
export async function findTagByCodeAction(previous: FormState, formData: FormData): Promise<FormState> {
  const t = await getTranslations("Found");
  const finder = await getTranslations("Finder");
  const run = action(
    {
      auth: "optional",
      // The code as the API takes it (POST /tags/activate's `code`).
      input: activateTagInput.pick({ code: true }),
      rateLimit: endpointRateLimits(scanEndpoints.scan),
      values: ["code"],
      onInvalid: (_error, values): FormState => ({ status: "error", message: t("invalid"), fieldErrors: { code: [t("invalid")] }, values }),
      rateLimitedMessage: () => finder("rateLimited"),
      failedMessage: finder("failed"),
      onError: (error, values): FormState => {
        if (error instanceof ValidationError) return { status: "error", message: t("invalid"), fieldErrors: { code: [t("invalid")] }, values };
        if (error instanceof NotFoundError) return { status: "error", message: t("notFound"), fieldErrors: { code: [t("notFound")] }, values };
        return { status: "error", message: finder("failed"), values };
      },
    },
    async ({ ctx, input }) => {
      const encryptedId = await findEncryptedIdByCode(ctx, input.code);
      redirect(`/t/${encryptedId}`);
    },
  );
  return run(previous, formData);
}
