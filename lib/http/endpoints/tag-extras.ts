import { z } from "zod";
import { rateLimitPolicies } from "@/lib/ratelimit/policies";
import { messageSchema } from "@/lib/services/auth/schemas";
import { insuranceRecordSchema } from "@/lib/services/tags/insurance";
import { createTransferInput, insuranceInputSchema } from "@/lib/services/tags/schemas";
import { scanRecordSchema } from "@/lib/services/tags/scans";
import { transferRecordSchema } from "@/lib/services/tags/transfers";
import { reportStolenResultSchema } from "@/lib/services/vehicles/report-stolen";
import { vinCheckSchema } from "@/lib/services/vehicles/verify-vin";
import { defineEndpoint } from "../endpoint";
import { paginationQuery } from "../pagination";
import { idParams, uuidParam } from "../params";

const tags = ["Tags"];
const transfers = ["Tag transfers"];
const vehicles = ["Vehicles"];

/** Transfers, insurance, scans, QR codes and vehicles: the tag endpoints beyond the record itself. */
export const tagExtraEndpoints = {
  createTransfer: defineEndpoint({
    method: "POST",
    path: "/api/v1/tags/{id}/transfer",
    summary: "Offer a tag to another person",
    description:
      `Creates a PENDING transfer to an e-mail address, open for 7 days, and e-mails the recipient. A second one while one is pending is 409; to your own address 400. At most ${rateLimitPolicies.transferOffersBySender.limit} offers a day per sender and ${rateLimitPolicies.transferOffersByRecipient.limit} a day to one address, whoever sends them: 429 past either (an offer refused for another reason does not count; a cancelled one does).`,
    tags: transfers,
    auth: "required",
    params: idParams,
    successStatus: 201,
    body: createTransferInput,
    response: transferRecordSchema,
    errors: ["CONFLICT"],
  }),
  cancelTransfer: defineEndpoint({
    method: "DELETE",
    path: "/api/v1/tags/{id}/transfer",
    summary: "Cancel the tag's pending transfer (sender)",
    description: "404 when the tag has no pending transfer.",
    tags: transfers,
    auth: "required",
    params: idParams,
    response: transferRecordSchema,
  }),
  listTransfers: defineEndpoint({
    method: "GET",
    path: "/api/v1/tags/transfers",
    summary: "My incoming and outgoing transfers",
    description:
      "Incoming: offers to your account's e-mail address, shown only once you have confirmed it (until then always empty). Outgoing: offers you made. Newest first, up to 100 each.",
    tags: transfers,
    auth: "required",
    response: z.object({ incoming: z.array(transferRecordSchema), outgoing: z.array(transferRecordSchema) }),
  }),
  acceptTransfer: defineEndpoint({
    method: "POST",
    path: "/api/v1/tags/transfers/{id}/accept",
    summary: "Accept a transfer (recipient)",
    description:
      "The tag, its profile and photos become yours; the sender's contact details, insurance and the scans recorded before are removed, so its scan count starts from zero. Needs a verified e-mail address (403). No longer pending or expired: 409; over your tier's tag limit: 422.",
    tags: transfers,
    auth: "required",
    params: idParams,
    response: transferRecordSchema,
    errors: ["CONFLICT", "FORBIDDEN", "UNPROCESSABLE_ENTITY"],
  }),
  declineTransfer: defineEndpoint({
    method: "POST",
    path: "/api/v1/tags/transfers/{id}/decline",
    summary: "Decline a transfer (recipient)",
    description: "Needs a verified e-mail address (403). No longer pending or expired: 409.",
    tags: transfers,
    auth: "required",
    params: idParams,
    response: transferRecordSchema,
    errors: ["CONFLICT", "FORBIDDEN"],
  }),
  getInsurance: defineEndpoint({
    method: "GET",
    path: "/api/v1/tags/{id}/insurance",
    summary: "Get a tag's insurance record",
    description: "404 when the tag has none.",
    tags,
    auth: "required",
    params: idParams,
    response: insuranceRecordSchema,
  }),
  saveInsurance: defineEndpoint({
    method: "POST",
    path: "/api/v1/tags/{id}/insurance",
    summary: "Create or replace a tag's insurance record",
    description: "coverageAmount in major units (stored in minor units); currency ISO 4217, default USD. 201 when created, 200 when replaced.",
    tags,
    auth: "required",
    params: idParams,
    successStatus: 201,
    body: insuranceInputSchema,
    response: insuranceRecordSchema,
  }),
  deleteInsurance: defineEndpoint({
    method: "DELETE",
    path: "/api/v1/tags/{id}/insurance",
    summary: "Remove a tag's insurance record",
    tags,
    auth: "required",
    params: idParams,
    response: messageSchema,
  }),
  listScans: defineEndpoint({
    method: "GET",
    path: "/api/v1/tags/{id}/scans",
    summary: "A tag's scans, newest first",
    tags,
    auth: "required",
    params: idParams,
    query: paginationQuery,
    response: scanRecordSchema,
    responseKind: "paginated",
  }),
  qrCode: defineEndpoint({
    method: "GET",
    path: "/api/v1/tags/{id}/qr",
    summary: "The tag's scan URL as a QR code image",
    description: "Answers the image itself, not JSON: `image/svg+xml` (format=svg) or `image/png` (format=png, the default).",
    tags,
    auth: "required",
    params: idParams,
    query: z.object({ format: z.enum(["svg", "png"]).default("png") }),
    responseKind: "image",
  }),
  reportStolen: defineEndpoint({
    method: "POST",
    path: "/api/v1/vehicles/{tagId}/report-stolen",
    summary: "Report a vehicle stolen",
    description:
      "VEHICLE tags only (another type: 422). ACTIVE or LOST → STOLEN; from any other status 400 INVALID_TRANSITION. Scans then show a stolen alert.",
    tags: vehicles,
    auth: "required",
    params: z.object({ tagId: uuidParam() }),
    body: z.object({ policeReportRef: z.string().trim().min(1).max(100).nullable().optional() }),
    response: reportStolenResultSchema,
    errors: ["INVALID_TRANSITION", "UNPROCESSABLE_ENTITY"],
  }),
  verifyVin: defineEndpoint({
    method: "GET",
    path: "/api/v1/vehicles/verify/{vin}",
    summary: "Check whether a VIN is registered and reported stolen",
    description: "Public. A malformed VIN (not 17 letters and digits, or containing I, O or Q) is 400. 10 requests per minute per IP.",
    tags: vehicles,
    auth: "none",
    rateLimit: ["vinVerify"],
    params: z.object({ vin: z.string().meta({ description: "17-character VIN", example: "1HGCM82633A004352" }) }),
    response: vinCheckSchema,
  }),
};
