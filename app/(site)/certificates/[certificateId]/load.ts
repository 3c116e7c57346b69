import { cache } from "react";
import { notFound } from "next/navigation";
import { systemContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { certificateById, certificateIdParams, type Certificate } from "@/lib/services/rewards";

/** The certificate behind a public id (once per request: metadata and page share it); anything else is the 404 page. */
export const loadCertificate = cache(async (certificateId: string): Promise<Certificate> => {
  if (!certificateIdParams.shape.certificateId.safeParse(certificateId).success) notFound();
  try {
    return (await certificateById(systemContext(), certificateId)).certificate;
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
});
