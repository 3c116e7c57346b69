import { ActionForm } from "@/components/forms/action-form";
import { subscribeNewsletterAction } from "@/app/(site)/newsletter/actions";

/** The footer's newsletter sign-up: one e-mail field, double opt-in (the success says to check the inbox). */
export function NewsletterSignup() {
  return (
    <section aria-labelledby="newsletter-heading" className="max-w-sm">
      <h2 id="newsletter-heading" className="text-sm font-semibold text-ink">
        Newsletter
      </h2>
      <p className="mt-1 text-sm text-muted">News about tags and the service, a few times a year. Unsubscribe at any time.</p>
      <ActionForm
        action={subscribeNewsletterAction}
        formLabel="Subscribe to the newsletter"
        className="mt-3"
        inline
        fields={[{ name: "email", label: "Your address for the newsletter", type: "email", autoComplete: "email", maxLength: 254 }]}
        submitLabel="Subscribe"
        pendingLabel="Subscribing…"
      />
    </section>
  );
}
