import { messageSchema } from "@/lib/services/auth";
import { insuranceInputSchema, insuranceRecordSchema } from "@/lib/services/tags";
import { defineEndpoint } from "../endpoint";
import { idParams } from "../params";

const tags = ["Tags"];

/** A tag's insurance details. */
export const insuranceEndpoints = {
  getInsurance: defineEndpoint({
    operationId: "getTagInsurance",
    method: "GET",
    path: "/api/v1/tags/{id}/insurance",
    summary: "Get a tag's insurance record",
    description: "404 when the tag has none.",
    tags,
    auth: "user",
    params: idParams,
    response: insuranceRecordSchema,
  }),
  saveInsurance: defineEndpoint({
    operationId: "saveTagInsurance",
    method: "POST",
    path: "/api/v1/tags/{id}/insurance",
    summary: "Create or replace a tag's insurance record",
    description: "coverageAmount in major units (stored in minor units); currency ISO 4217, default USD. 201 when created, 200 when replaced.",
    tags,
    auth: "user",
    params: idParams,
    successStatus: 201,
    otherSuccess: [{ status: 200, description: "Replaced: the tag already had an insurance record" }],
    body: insuranceInputSchema,
    response: insuranceRecordSchema,
  }),
  deleteInsurance: defineEndpoint({
    operationId: "deleteTagInsurance",
    method: "DELETE",
    path: "/api/v1/tags/{id}/insurance",
    summary: "Remove a tag's insurance record",
    tags,
    auth: "user",
    params: idParams,
    response: messageSchema,
  }),
};
