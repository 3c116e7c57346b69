import { z } from "zod";
import { devPhoneDelivery, devPhoneQuery } from "@/lib/services/relay";
import { defineEndpoint } from "../endpoint";

export const mailboxMessage = z.object({
  id: z.uuid(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  headers: z.record(z.string(), z.string()),
  createdAt: z.iso.datetime(),
});

/** Development-only endpoints: not in the OpenAPI document, 404 when switched off. */
export const devEndpoints = {
  mailbox: defineEndpoint({
    method: "GET",
    path: "/api/dev/mailbox",
    summary: "Development mailbox",
    tags: ["Development"],
    auth: "public",
    versioned: false,
    hidden: true,
    query: z.object({ to: z.string().trim().max(320).optional(), limit: z.coerce.number().int().min(1).max(200).optional() }),
    response: z.array(mailboxMessage),
  }),
  phone: defineEndpoint({
    method: "GET",
    path: "/api/dev/phone",
    summary: "Development phone: what the test telephony provider delivered to or from a number",
    tags: ["Development"],
    auth: "public",
    versioned: false,
    hidden: true,
    query: devPhoneQuery,
    response: z.array(devPhoneDelivery),
  }),
};
