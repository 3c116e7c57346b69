import { textWebReplyToFinder } from "@/lib/services/relay";
import { defineCatalogJob } from "../catalog";

/** Texts an owner's web reply to the relay conversation's finder (docs/relay.md); once per reply, however often it runs. */
export const textOwnerReplyJob = defineCatalogJob("relay.text-owner-reply", async (data, job) => {
  await textWebReplyToFinder(job.ctx, data.messageId);
});
