import { campaignSchema, createCampaignInput } from "@/lib/services/campaigns";
import { contactInput, messageSchema, newsletterInput, newsletterTokenQuery, oneClickUnsubscribeBody } from "@/lib/services/contact";
import { defineEndpoint } from "../endpoint";
import { cursorPaginationQuery } from "../pagination";
import { idParams } from "../params";

const contact = ["Blog, careers, contact"];
const admin = ["Admin"];

/** The contact form, the newsletter (double opt-in, one-click unsubscribe) and admin campaigns. */
export const contactEndpoints = {
  send: defineEndpoint({
    operationId: "sendContactMessage",
    method: "POST",
    path: "/api/v1/contact",
    summary: "Send a message to support",
    description:
      "All fields required: name and subject (one line, at most 100 characters), a valid e-mail, message (at most 2000). The message is stored, acknowledged to the sender by e-mail and forwarded to support with the sender as Reply-To. The answer promises a reply within 24 hours. Limited to 3 an hour per IP.",
    tags: contact,
    auth: "public",
    rateLimit: ["contactForm"],
    successStatus: 201,
    body: contactInput,
    response: messageSchema,
  }),
  subscribe: defineEndpoint({
    operationId: "subscribeNewsletter",
    method: "POST",
    path: "/api/v1/contact/newsletter",
    summary: "Subscribe to the newsletter",
    description:
      "Double opt-in: a new, pending or unsubscribed address is sent a confirmation link (valid 7 days; at most one e-mail per address per 10 minutes); a confirmed address is sent nothing. The answer is the same 200 in every case, so it tells no one whether an address subscribes. Limited to 10 an hour per IP.",
    tags: contact,
    auth: "public",
    rateLimit: ["newsletterSignup"],
    body: newsletterInput,
    response: messageSchema,
  }),
  confirm: defineEndpoint({
    operationId: "confirmNewsletterSubscription",
    method: "GET",
    path: "/api/v1/contact/newsletter/confirm",
    summary: "Confirm a newsletter subscription",
    description:
      "The token from the confirmation e-mail (the e-mail links to the page /newsletter/confirm, which does the same). The subscription becomes CONFIRMED; the token works once. An unknown, used or expired token is 400 VALIDATION_ERROR.",
    tags: contact,
    auth: "public",
    query: newsletterTokenQuery,
    response: messageSchema,
    errors: ["VALIDATION_ERROR"],
  }),
  unsubscribe: defineEndpoint({
    operationId: "unsubscribeNewsletter",
    method: "POST",
    path: "/api/v1/contact/newsletter/unsubscribe",
    summary: "Unsubscribe from the newsletter (one-click)",
    description:
      "RFC 8058 one-click unsubscribe, the URL of every campaign's `List-Unsubscribe` header: the token is in the query; mail providers POST `List-Unsubscribe=One-Click` as application/x-www-form-urlencoded (the body is optional and not read). No credential or cookie is taken. Idempotent: unsubscribing twice answers the same. A token we did not make is 400 VALIDATION_ERROR.",
    tags: contact,
    auth: "public",
    credentials: false,
    rateLimit: ["newsletterUnsubscribe"],
    query: newsletterTokenQuery,
    rawBody: { mediaType: "application/x-www-form-urlencoded", schema: oneClickUnsubscribeBody },
    response: messageSchema,
    errors: ["VALIDATION_ERROR"],
  }),
  adminCreateCampaign: defineEndpoint({
    operationId: "createCampaign",
    method: "POST",
    path: "/api/v1/admin/campaigns",
    summary: "Send a newsletter campaign (admin)",
    description:
      "subject (one line, at most 150 characters) and content (Markdown, at most 100 000). The recipients are every CONFIRMED subscriber at this moment; the e-mails go out in batches of up to 100, one call to the e-mail provider each (follow sentCount / recipientCount), each with an unsubscribe link and List-Unsubscribe headers. No confirmed subscriber: 422. Recorded in the audit log.",
    tags: admin,
    auth: "admin",
    successStatus: 201,
    body: createCampaignInput,
    response: campaignSchema,
    errors: ["FORBIDDEN", "UNPROCESSABLE_ENTITY"],
  }),
  adminListCampaigns: defineEndpoint({
    operationId: "listCampaigns",
    method: "GET",
    path: "/api/v1/admin/campaigns",
    summary: "Newsletter campaigns (admin)",
    description: "Paginated, newest first, each with its progress (sentCount of recipientCount) and status (SENDING, SENT).",
    tags: admin,
    auth: "admin",
    query: cursorPaginationQuery,
    response: campaignSchema,
    responseKind: "paginated",
    errors: ["FORBIDDEN"],
  }),
  adminGetCampaign: defineEndpoint({
    operationId: "getCampaign",
    method: "GET",
    path: "/api/v1/admin/campaigns/{id}",
    summary: "A newsletter campaign and its progress (admin)",
    tags: admin,
    auth: "admin",
    params: idParams,
    response: campaignSchema,
    errors: ["FORBIDDEN"],
  }),
};
