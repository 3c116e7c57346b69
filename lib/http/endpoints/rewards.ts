import { z } from "zod";
import { messageSchema } from "@/lib/services/auth";
import { certificateIdParams, certificateResultSchema, confirmReturnInput, confirmReturnResultSchema, createRewardInput, disputeRewardInput, disputeRewardResultSchema, finderRewardSchema, payRewardInput, payRewardResultSchema, rewardSchema } from "@/lib/services/rewards";
import { defineEndpoint } from "../endpoint";
import { cursorPaginationQuery } from "../pagination";
import { idParams, uuidParam } from "../params";
import { threadTokenParams } from "./finder-threads";

const rewards = ["Rewards"];
const tagIdParams = z.object({ tagId: uuidParam() });

/** Rewards owners offer for a tag's return: the reward state table (docs/decisions/0022-reward-state-machine.md), certificates, the finder's view. */
export const rewardEndpoints = {
  list: defineEndpoint({
    operationId: "listRewards",
    method: "GET",
    path: "/api/v1/rewards",
    summary: "List my rewards",
    description: "The caller's rewards, newest first. `tagId` narrows the list to one tag's rewards (another user's tag: an empty list).",
    tags: rewards,
    auth: "user",
    query: cursorPaginationQuery.extend({ tagId: uuidParam().optional().meta({ description: "Only this tag's rewards" }) }),
    response: rewardSchema,
    responseKind: "paginated",
  }),
  create: defineEndpoint({
    operationId: "createReward",
    method: "POST",
    path: "/api/v1/rewards/{id}",
    summary: "Offer a reward on a tag",
    description:
      "`id` is the tag's id. amount > 0 and ≤ 10 000 in major units (at most two decimals); currency an ISO 4217 code (default USD, answered upper case). One ACTIVE or RETURNED reward per tag: a second is 409. Another user's tag is 404. Each finder's conversation on the tag then shows its own one-time handover code (never shown to you).",
    tags: rewards,
    auth: "user",
    params: idParams,
    body: createRewardInput,
    response: rewardSchema,
    successStatus: 201,
    errors: ["CONFLICT"],
  }),
  remove: defineEndpoint({
    operationId: "deleteReward",
    method: "DELETE",
    path: "/api/v1/rewards/{id}",
    summary: "Remove a reward",
    description: "Only an ACTIVE or DISPUTED reward can be removed; any other is 409. Another user's reward is 404.",
    tags: rewards,
    auth: "user",
    params: idParams,
    response: messageSchema,
    errors: ["CONFLICT"],
  }),
  confirmReturn: defineEndpoint({
    operationId: "confirmReturn",
    method: "POST",
    path: "/api/v1/rewards/confirm-return/{tagId}",
    summary: "Confirm the item was returned",
    description:
      "The tag's ACTIVE reward becomes RETURNED (409 when there is none) and a LOST tag becomes FOUND. The body may name the finder who returned the item, in one of two ways (both at once is 400):\n\n- `handoverCode`: the 6-digit code the finder gave you with the item. Each conversation on the tag has its own code, so the code names that finder; the return (and its certificate) is a verified handover (`confirmation: HANDOVER_CODE`). A code that is none of the tag's finders' changes nothing and is 422 with `{ attemptsLeft, locked }`; after five wrong codes the check is locked (422) and the return can only be confirmed without a code.\n- `threadId`: the finder's conversation, chosen by you (the finder had no phone, you met in person): `confirmation: OWNER_CHOSE_FINDER`, and the certificate says the owner confirmed it. A conversation that is not one of this tag's (or one you opened yourself) is 422.\n\nWith neither (or no body), you confirm alone and no finder is named (`confirmation: OWNER`). Only the named finder's conversation is then told of the return, the payment and the certificate; the tag's other open conversations are closed (you can reopen them) and their finders told the item is back with you. Concurrent confirmations: one takes effect, the others are 409.",
    tags: rewards,
    auth: "user",
    params: tagIdParams,
    body: confirmReturnInput,
    response: confirmReturnResultSchema,
    errors: ["CONFLICT", "UNPROCESSABLE_ENTITY"],
  }),
  pay: defineEndpoint({
    operationId: "payReward",
    method: "POST",
    path: "/api/v1/rewards/{id}/pay",
    summary: "Record the reward as paid",
    description: "RETURNED → PAID with an optional external payment reference; 409 from any other state (a reward not yet returned cannot be paid).",
    tags: rewards,
    auth: "user",
    params: idParams,
    body: payRewardInput,
    response: payRewardResultSchema,
    errors: ["CONFLICT"],
  }),
  dispute: defineEndpoint({
    operationId: "disputeReward",
    method: "POST",
    path: "/api/v1/rewards/{id}/dispute",
    summary: "Dispute a reward",
    description: "RETURNED or PAID → DISPUTED with the reason; 409 from ACTIVE or DISPUTED.",
    tags: rewards,
    auth: "user",
    params: idParams,
    body: disputeRewardInput,
    response: disputeRewardResultSchema,
    errors: ["CONFLICT"],
  }),
  certificate: defineEndpoint({
    operationId: "getReturnCertificate",
    method: "GET",
    path: "/api/v1/rewards/certificate/{tagId}",
    summary: "A tag's return certificate",
    description: "Public. The certificate of the tag's latest RETURNED or PAID reward offered by its current owner, else 404 (a previous owner's stays reachable by its certificate id). `itemName` is null when the tag's profile is PRIVATE.",
    tags: rewards,
    auth: "public",
    params: tagIdParams,
    response: certificateResultSchema,
  }),
  certificateById: defineEndpoint({
    operationId: "verifyReturnCertificate",
    method: "GET",
    path: "/api/v1/rewards/certificates/{certificateId}",
    summary: "Verify a return certificate",
    description: "Public. The same object as by tag, while its reward is RETURNED or PAID; else 404.",
    tags: rewards,
    auth: "public",
    params: certificateIdParams,
    response: certificateResultSchema,
  }),
  finder: defineEndpoint({
    operationId: "getFinderReward",
    method: "GET",
    path: "/api/v1/scan/thread/{token}/reward",
    summary: "The reward, as the finder sees it",
    description:
      "The tag's current reward for the finder holding the thread token: offered, amount, currency, description and status. Once the tag has been transferred away from the conversation's owner, `offered` is false. While it is ACTIVE, `handoverCode` is this conversation's own one-time code (each conversation has its own) to give the owner only once the item is in their hands; a conversation the owner opened on their own tag gets none. Once returned, `outcome` says whether the return named this conversation's finder (YOURS: status, verified handover and certificate follow) or not (ITEM_BACK: the item is back with its owner, the conversation is closed, status stays RETURNED). Unknown token 404.",
    tags: ["Finder conversations"],
    auth: "public",
    params: threadTokenParams,
    response: finderRewardSchema,
  }),
};
