"use server";

import { notFound } from "next/navigation";
import { z } from "zod";
import { rowAction } from "@/lib/forms/action";
import { devPhoneEnabled } from "@/lib/env";
import { log } from "@/lib/log";
import { DomainError } from "@/lib/services/errors";
import { testNetwork, TestNetworkError } from "@/lib/telephony/test-network";

/**
 * The development phone's buttons (docs/relay.md "The development phone"): each plays one step on the
 * test provider's telephone network, which posts the signed webhooks to the app, then comes back to the
 * page with both phones' numbers. Plain rowActions: the network is the telephone, which no API endpoint
 * of ours serves; they are off (404) wherever the development phone is.
 */

const phone = z
  .string()
  .regex(/^\+[1-9]\d{6,14}$/)
  .meta({ example: "+14155550100" });
const callSid = z
  .string()
  .regex(/^CA[0-9a-f]{32}$/)
  .meta({ example: `CA${"0".repeat(32)}` });

/** The two phones the page shows, carried by every form so the page comes back to them. */
const phones = { finder: phone.optional(), owner: phone.optional() };
const onCall = z.object({ sid: callSid, ...phones });

type Notice = "not-waiting" | "invalid" | "text-failed";

function pagePath(formData: FormData, notice?: Notice): string {
  const query = new URLSearchParams();
  for (const name of ["finder", "owner"]) {
    const value = formData.get(name);
    if (typeof value === "string" && /^\+[1-9]\d{6,14}$/.test(value)) query.set(name, value);
  }
  if (notice) query.set("notice", notice);
  const text = query.toString();
  return `/dev/phone${text ? `?${text}` : ""}`;
}

const options = {
  auth: "system" as const,
  rateLimit: ["general"] as const,
  // A malformed field (a hand-edited form) names nothing: back to the page with a notice.
  onError: (_error: DomainError, formData: FormData) => pagePath(formData, "invalid"),
};

/** Runs one network step; a step the call is not in (pressing keys after it ended) comes back with a notice. */
async function step(formData: FormData, play: () => Promise<unknown>): Promise<string> {
  if (!devPhoneEnabled()) notFound();
  try {
    await play();
  } catch (error) {
    if (!(error instanceof TestNetworkError)) throw error;
    return pagePath(formData, "not-waiting");
  }
  return pagePath(formData);
}

export const dialRelayAction = rowAction({ ...options, params: z.object({ finder: phone, owner: phone.optional() }) }, async ({ params, formData }) =>
  step(formData, () => testNetwork().dial(params.finder)),
);

export const pressKeysAction = rowAction({ ...options, params: onCall, input: z.object({ keys: z.string().regex(/^[0-9*#]{1,20}$/).meta({ example: "123456" }) }) }, async ({ params, input, formData }) =>
  step(formData, () => testNetwork().pressDigits(params.sid, input.keys)),
);

export const stayQuietAction = rowAction({ ...options, params: onCall }, async ({ params, formData }) => step(formData, () => testNetwork().stayQuiet(params.sid)));

export const answerCallAction = rowAction({ ...options, params: onCall }, async ({ params, formData }) => step(formData, () => testNetwork().answer(params.sid)));

export const declineCallAction = rowAction({ ...options, params: onCall }, async ({ params, formData }) => step(formData, () => testNetwork().decline(params.sid, "busy")));

export const ringOutAction = rowAction({ ...options, params: onCall }, async ({ params, formData }) => step(formData, () => testNetwork().decline(params.sid, "no-answer")));

export const hangUpAction = rowAction({ ...options, params: onCall }, async ({ params, formData }) => step(formData, () => testNetwork().hangUp(params.sid)));

export const sendTextAction = rowAction(
  { ...options, params: z.object({ from: phone, ...phones }), input: z.object({ body: z.string().trim().min(1).max(1600).meta({ example: "123456 I found your dog" }) }) },
  async ({ params, input, formData }) => {
    if (!devPhoneEnabled()) notFound();
    const result = await testNetwork().sendText(params.from, input.body);
    if (result.error) {
      log.warn("development phone: the SMS webhook did not answer", { messageSid: result.sid, error: result.error });
      return pagePath(formData, "text-failed");
    }
    return pagePath(formData);
  },
);
