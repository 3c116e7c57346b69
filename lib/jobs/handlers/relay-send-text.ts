import { sendSealedRelayText } from "@/lib/services/relay";
import { defineCatalogJob } from "../catalog";

/** A relayed text the webhook could not send, sent again (docs/relay.md); throws to retry. */
export const relaySendTextJob = defineCatalogJob("relay.send-text", async (data) => {
  await sendSealedRelayText(data);
});
