import { notFound } from "next/navigation";
import { tagEndpoints } from "@/lib/http/endpoints/tags";
import { requireUserContext } from "@/lib/http/page-context";
import { pageParams } from "@/lib/http/page-input";
import { NotFoundError } from "@/lib/services/errors";
import { getProfile } from "@/lib/services/profiles";
import { getTag } from "@/lib/services/tags";

/** The owner's tag, or the 404 page: another owner's tag and a malformed id read as missing. */
export async function loadOwnedTag(rawId: string, path: string) {
  const ctx = await requireUserContext(path);
  const { id } = await pageParams(tagEndpoints.get, { id: rawId });
  try {
    const [tag, profile] = await Promise.all([getTag(ctx, id), getProfile(ctx, id)]);
    return { ctx, tag, profile };
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
}

