import { z } from "zod";
import { messageSchema } from "@/lib/services/auth";
import { activateTagInput, bulkActivateInput, mintTagsInput, setTagStatusInput, tagRecordSchema, tagStatusSchema, tagTypeSchema, updateTagInput } from "@/lib/services/tags";
import { defineEndpoint } from "../endpoint";
import { cursorPaginationQuery } from "../pagination";
import { idParams } from "../params";

const tags = ["Tags"];

export const mintedTagSchema = z.object({ id: z.uuid(), code: z.string(), encryptedId: z.string(), scanUrl: z.string() }).meta({ id: "MintedTag" });

export const tagEndpoints = {
  mint: defineEndpoint({
    operationId: "mintTags",
    method: "POST",
    path: "/api/v1/admin/tags/batch",
    summary: "Mint a batch of tags (admin)",
    description: "Creates unowned PENDING_SETUP tags with printed codes and scan URLs, for printing.",
    tags: ["Admin"],
    auth: "admin",
    successStatus: 201,
    body: mintTagsInput,
    response: z.array(mintedTagSchema),
  }),
  list: defineEndpoint({
    operationId: "listTags",
    method: "GET",
    path: "/api/v1/tags",
    summary: "List my tags",
    tags,
    auth: "user",
    query: cursorPaginationQuery.extend({ status: tagStatusSchema.optional(), tagType: tagTypeSchema.optional() }),
    response: tagRecordSchema,
    responseKind: "paginated",
  }),
  get: defineEndpoint({ operationId: "getTag", method: "GET", path: "/api/v1/tags/{id}", summary: "Get a tag", tags, auth: "user", params: idParams, response: tagRecordSchema }),
  activate: defineEndpoint({
    operationId: "activateTag",
    method: "POST",
    path: "/api/v1/tags/activate",
    summary: "Activate (claim) a tag by its printed code",
    description: "The tag becomes yours in PENDING_SETUP; it turns ACTIVE by itself once its profile is complete. Unknown code 404, a claimed code 409, over the tier's tag limit 422 with `{ tier, limit }`.",
    tags,
    auth: "user",
    successStatus: 201,
    body: activateTagInput,
    response: tagRecordSchema,
    errors: ["NOT_FOUND", "CONFLICT", "UNPROCESSABLE_ENTITY"],
  }),
  bulkActivate: defineEndpoint({
    operationId: "bulkActivateTags",
    method: "POST",
    path: "/api/v1/tags/bulk-activate",
    summary: "Activate up to 100 codes",
    description: "Each code is claimed on its own; the answer lists what was activated and why each failure failed.",
    tags,
    auth: "user",
    body: bulkActivateInput,
    response: z.object({
      activated: z.array(tagRecordSchema),
      failed: z.array(z.object({ code: z.string(), error: z.object({ code: z.string(), message: z.string() }) })),
    }),
  }),
  update: defineEndpoint({
    operationId: "updateTag",
    method: "PATCH",
    path: "/api/v1/tags/{id}",
    summary: "Edit a tag's name or type",
    tags,
    auth: "user",
    params: idParams,
    body: updateTagInput,
    response: tagRecordSchema,
  }),
  release: defineEndpoint({
    operationId: "releaseTag",
    method: "DELETE",
    path: "/api/v1/tags/{id}",
    summary: "Release a tag",
    description: "Removes its profile, photos, scans, messages, transfers and insurance; the tag returns to inventory with a new scan URL.",
    tags,
    auth: "user",
    params: idParams,
    response: messageSchema,
  }),
  setStatus: defineEndpoint({
    operationId: "setTagStatus",
    method: "PATCH",
    path: "/api/v1/tags/{id}/status",
    summary: "Change a tag's status",
    description:
      "Moves allowed: PENDING_SETUP→ACTIVE (profile complete, else 422); ACTIVE→LOST|STOLEN|DEACTIVATED; LOST→FOUND|ACTIVE|STOLEN; FOUND→ACTIVE; STOLEN→ACTIVE|DEACTIVATED; DEACTIVATED→ACTIVE; EXPIRED→ACTIVE (PRO and above, else 403). Anything else, the same status included, is 400 INVALID_TRANSITION. A DEACTIVATED vehicle tag whose VIN another live tag claimed meanwhile cannot come back: 409 CONFLICT.",
    tags,
    auth: "user",
    params: idParams,
    body: setTagStatusInput,
    response: tagRecordSchema,
    errors: ["INVALID_TRANSITION", "FORBIDDEN", "UNPROCESSABLE_ENTITY", "CONFLICT"],
  }),
};
