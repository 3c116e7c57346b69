"use server";

import { revalidatePath } from "next/cache";
import { rowAction } from "@/lib/forms/action";
import { organisationEndpoints } from "@/lib/http/endpoints/organisations";
import { errorNotice } from "@/lib/http/page-input";
import { setOrganisationVerified } from "@/lib/services/organisations";
import { backToOrganisations, ORGANISATIONS_PATH } from "./organisations-path";

const notices = errorNotice({ NOT_FOUND: "missing" });

/** PATCH /admin/organisations/:id { verified } from the Verify / Withdraw verification buttons. */
export const setVerifiedAction: (formData: FormData) => Promise<void> = rowAction.for(
  organisationEndpoints.adminSetVerified,
  {
    fields: { id: "organisationId" },
    returnTo: ORGANISATIONS_PATH,
    onError: (error, formData) => {
      const notice = notices(error);
      return notice ? backToOrganisations(formData, notice) : undefined;
    },
    revalidate: () => revalidatePath(ORGANISATIONS_PATH),
  },
  async ({ ctx, params, input, formData }) => {
    const organisation = await setOrganisationVerified(ctx, params.id, input);
    return backToOrganisations(formData, organisation.verified ? "verified" : "unverified");
  },
);
