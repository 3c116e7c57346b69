import { created, otherMethods, route } from "@/lib/http";
import { profileEndpoints } from "@/lib/http/endpoints";
import { PHOTO_UPLOAD_BODY_LIMIT_BYTES } from "@/lib/http/endpoints/profiles";
import { readBodyBytes } from "@/lib/http/body";
import { ValidationError } from "@/lib/services/errors";
import { addPhoto, deletePhoto } from "@/lib/services/profiles";

/** Reads the multipart body (refusing more than the limit, whatever Content-Length says) → file bytes and isPrimary. */
async function readPhotoUpload(req: Request): Promise<{ bytes: Buffer; isPrimary: boolean }> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) {
    throw ValidationError.field("file", "Send the photo as multipart/form-data with a `file` field.");
  }
  const body = await readBodyBytes(req, PHOTO_UPLOAD_BODY_LIMIT_BYTES);

  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
  } catch {
    throw ValidationError.field("file", "The multipart body could not be read.");
  }
  const file = form.get("file");
  if (file === null) throw ValidationError.field("file", "Required.");
  if (typeof file === "string") throw ValidationError.field("file", "Must be a file.");

  const flag = form.get("isPrimary");
  let isPrimary = false;
  if (flag !== null) {
    if (flag !== "true" && flag !== "false") throw ValidationError.field("isPrimary", 'Must be "true" or "false".');
    isPrimary = flag === "true";
  }
  return { bytes: Buffer.from(await file.arrayBuffer()), isPrimary };
}

export const POST = route(profileEndpoints.addPhoto, async ({ req, params, ctx }) => {
  const upload = await readPhotoUpload(req);
  return created(await addPhoto(ctx, params.tagId, { bytes: upload.bytes }, upload.isPrimary));
});
export const DELETE = route(profileEndpoints.deletePhotoByQuery, async ({ params, query, ctx }) => deletePhoto(ctx, params.tagId, query.photoId));
export const { GET, PUT, PATCH } = otherMethods(profileEndpoints.addPhoto, profileEndpoints.deletePhotoByQuery);
export { preflight as OPTIONS } from "@/lib/http";
