import { cache } from "react";
import { notFound } from "next/navigation";
import { rewardEndpoints } from "@/lib/http/endpoints/rewards";
import { pageParams } from "@/lib/http/page-input";
import { systemContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { certificateById, type Certificate } from "@/lib/services/rewards";

/** The certificate behind a public id (once per request: metadata and page share it); anything else is the 404 page. */
export const loadCertificate = cache(async (rawId: string): Promise<Certificate> => {
  const { certificateId } = await pageParams(rewardEndpoints.certificateById, { certificateId: rawId });
  try {
    return (await certificateById(systemContext(), certificateId)).certificate;
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
});
