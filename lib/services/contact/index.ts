/**
 * The contact domain as routes, server actions and pages use it: the contact form and the newsletter
 * (double opt-in, one-click unsubscribe).
 */
export { CONTACT_RECEIVED, sendContactMessage } from "./contact";
export {
  CONFIRM_RESEND_INTERVAL_MS,
  CONFIRM_TOKEN_TTL_MS,
  confirmNewsletterSubscription,
  isValidUnsubscribeToken,
  NEWSLETTER_CONFIRMED,
  NEWSLETTER_REQUESTED,
  NEWSLETTER_UNSUBSCRIBED,
  subscribeToNewsletter,
  unsubscribeFromNewsletter,
  unsubscribeHeaders,
  unsubscribePageUrl,
  unsubscribeToken,
} from "./newsletter";
export * from "./schemas";
