import { z } from "zod";
import { rateLimitPolicies } from "@/lib/ratelimit/policies";
import { createTransferInput, transferRecordSchema } from "@/lib/services/tags";
import { defineEndpoint } from "../endpoint";
import { idParams } from "../params";

const transfers = ["Tag transfers"];

/** Handing a tag to another account. */
export const transferEndpoints = {
  createTransfer: defineEndpoint({
    operationId: "createTransfer",
    method: "POST",
    path: "/api/v1/tags/{id}/transfer",
    summary: "Offer a tag to another person",
    description:
      `Creates a PENDING transfer to an e-mail address, open for 7 days, and e-mails the recipient. A second one while one is pending is 409; to your own address 400. At most ${rateLimitPolicies.transferOffersBySender.limit} offers a day per sender and ${rateLimitPolicies.transferOffersByRecipient.limit} a day to one address, whoever sends them: 429 past either (an offer refused for another reason does not count; a cancelled one does).`,
    tags: transfers,
    auth: "user",
    params: idParams,
    successStatus: 201,
    body: createTransferInput,
    response: transferRecordSchema,
    errors: ["CONFLICT"],
  }),
  cancelTransfer: defineEndpoint({
    operationId: "cancelTransfer",
    method: "DELETE",
    path: "/api/v1/tags/{id}/transfer",
    summary: "Cancel the tag's pending transfer (sender)",
    description: "404 when the tag has no pending transfer.",
    tags: transfers,
    auth: "user",
    params: idParams,
    response: transferRecordSchema,
  }),
  listTransfers: defineEndpoint({
    operationId: "listTransfers",
    method: "GET",
    path: "/api/v1/tags/transfers",
    summary: "My incoming and outgoing transfers",
    description:
      "Incoming: offers to your account's e-mail address, shown only once you have confirmed it (until then always empty). Outgoing: offers you made. Newest first, up to 100 each.",
    tags: transfers,
    auth: "user",
    response: z.object({ incoming: z.array(transferRecordSchema), outgoing: z.array(transferRecordSchema) }),
  }),
  acceptTransfer: defineEndpoint({
    operationId: "acceptTransfer",
    method: "POST",
    path: "/api/v1/tags/transfers/{id}/accept",
    summary: "Accept a transfer (recipient)",
    description:
      "The tag, its profile and photos become yours; the sender's contact details, insurance and the scans recorded before are removed, so its scan count starts from zero, and the sender's ACTIVE reward on it is withdrawn (you may offer your own). The sender's conversations with finders stay the sender's and are closed. Needs a verified e-mail address (403). No longer pending or expired: 409; over your tier's tag limit: 422.",
    tags: transfers,
    auth: "user",
    params: idParams,
    response: transferRecordSchema,
    errors: ["CONFLICT", "FORBIDDEN", "UNPROCESSABLE_ENTITY"],
  }),
  declineTransfer: defineEndpoint({
    operationId: "declineTransfer",
    method: "POST",
    path: "/api/v1/tags/transfers/{id}/decline",
    summary: "Decline a transfer (recipient)",
    description: "Needs a verified e-mail address (403). No longer pending or expired: 409.",
    tags: transfers,
    auth: "user",
    params: idParams,
    response: transferRecordSchema,
    errors: ["CONFLICT", "FORBIDDEN"],
  }),
};
