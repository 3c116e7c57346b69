import { z } from "zod";
import { messageSchema } from "@/lib/services/auth/schemas";
import {
  certificateIdParams,
  certificateResultSchema,
  confirmReturnInput,
  confirmReturnResultSchema,
  createRewardInput,
  disputeRewardInput,
  disputeRewardResultSchema,
  finderRewardSchema,
  payRewardInput,
  payRewardResultSchema,
  rewardSchema,
} from "@/lib/services/rewards/schemas";
import { defineEndpoint } from "../endpoint";
import { paginationQuery } from "../pagination";
import { idParams, uuidParam } from "../params";
import { threadTokenParams } from "./finder-threads";

const rewards = ["Rewards"];
const tagIdParams = z.object({ tagId: uuidParam() });

/** Rewards owners offer for a tag's return: the state table of decisions.md "Rewards", certificates, the finder's view. */
export const rewardEndpoints = {
  list: defineEndpoint({
    method: "GET",
    path: "/api/v1/rewards",
    summary: "List my rewards",
    description: "The caller's rewards, newest first. `tagId` narrows the list to one tag's rewards (another user's tag: an empty list).",
    tags: rewards,
    auth: "required",
    query: paginationQuery.extend({ tagId: uuidParam().optional().meta({ description: "Only this tag's rewards" }) }),
    response: rewardSchema,
    responseKind: "paginated",
  }),
  create: defineEndpoint({
    method: "POST",
    path: "/api/v1/rewards/{id}",
    summary: "Offer a reward on a tag",
    description:
      "`id` is the tag's id. amount > 0 and ≤ 10 000 in major units (at most two decimals); currency an ISO 4217 code (default USD, answered upper case). One ACTIVE or RETURNED reward per tag: a second is 409. Another user's tag is 404. The finder's conversation then shows a one-time handover code (never shown to you).",
    tags: rewards,
    auth: "required",
    params: idParams,
    body: createRewardInput,
    response: rewardSchema,
    successStatus: 201,
    errors: ["CONFLICT"],
  }),
  remove: defineEndpoint({
    method: "DELETE",
    path: "/api/v1/rewards/{id}",
    summary: "Remove a reward",
    description: "Only an ACTIVE or DISPUTED reward can be removed; any other is 409. Another user's reward is 404.",
    tags: rewards,
    auth: "required",
    params: idParams,
    response: messageSchema,
    errors: ["CONFLICT"],
  }),
  confirmReturn: defineEndpoint({
    method: "POST",
    path: "/api/v1/rewards/confirm-return/{tagId}",
    summary: "Confirm the item was returned",
    description:
      "The tag's ACTIVE reward becomes RETURNED (409 when there is none) and a LOST tag becomes FOUND. Optional `handoverCode`: the 6-digit code the finder gave you with the item; a match marks the return (and its certificate) as a verified handover. A wrong code changes nothing and is 422 with `{ attemptsLeft, locked }`; after five wrong codes the check is locked (422) and the return can only be confirmed without a code.",
    tags: rewards,
    auth: "required",
    params: tagIdParams,
    body: confirmReturnInput,
    response: confirmReturnResultSchema,
    errors: ["CONFLICT", "UNPROCESSABLE_ENTITY"],
  }),
  pay: defineEndpoint({
    method: "POST",
    path: "/api/v1/rewards/{id}/pay",
    summary: "Record the reward as paid",
    description: "RETURNED → PAID with an optional external payment reference; 409 from any other state (a reward not yet returned cannot be paid).",
    tags: rewards,
    auth: "required",
    params: idParams,
    body: payRewardInput,
    response: payRewardResultSchema,
    errors: ["CONFLICT"],
  }),
  dispute: defineEndpoint({
    method: "POST",
    path: "/api/v1/rewards/{id}/dispute",
    summary: "Dispute a reward",
    description: "RETURNED or PAID → DISPUTED with the reason; 409 from ACTIVE or DISPUTED.",
    tags: rewards,
    auth: "required",
    params: idParams,
    body: disputeRewardInput,
    response: disputeRewardResultSchema,
    errors: ["CONFLICT"],
  }),
  certificate: defineEndpoint({
    method: "GET",
    path: "/api/v1/rewards/certificate/{tagId}",
    summary: "A tag's return certificate",
    description: "Public. The certificate of the tag's latest RETURNED or PAID reward offered by its current owner, else 404 (a previous owner's stays reachable by its certificate id). `itemName` is null when the tag's profile is PRIVATE.",
    tags: rewards,
    auth: "none",
    params: tagIdParams,
    response: certificateResultSchema,
  }),
  certificateById: defineEndpoint({
    method: "GET",
    path: "/api/v1/rewards/certificates/{certificateId}",
    summary: "Verify a return certificate",
    description: "Public. The same object as by tag, while its reward is RETURNED or PAID; else 404.",
    tags: rewards,
    auth: "none",
    params: certificateIdParams,
    response: certificateResultSchema,
  }),
  finder: defineEndpoint({
    method: "GET",
    path: "/api/v1/scan/thread/{token}/reward",
    summary: "The reward, as the finder sees it",
    description:
      "The tag's current reward for the finder holding the thread token: offered, amount, currency, description and status. Once the tag has been transferred away from the conversation's owner, `offered` is false. While it is ACTIVE, `handoverCode` is the one-time code to give the owner only once the item is in their hands. Unknown token 404.",
    tags: ["Finder conversations"],
    auth: "none",
    params: threadTokenParams,
    response: finderRewardSchema,
  }),
};
