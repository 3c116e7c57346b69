import type { Metadata } from "next";
import { FieldsForm } from "@/components/tags/fields-form";
import { sendContactAction } from "./actions";

export const metadata: Metadata = { title: "Contact us", description: "Questions about tags, orders or your account: write to us and we reply within 24 hours." };

/** The contact form: stored, acknowledged by e-mail and forwarded to support (POST /contact's service). */
export default function ContactPage() {
  return (
    <div className="bg-gradient-to-b from-brand-50 to-white px-4 py-10 sm:py-16">
      <div className="mx-auto w-full max-w-xl">
        <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">Contact us</h1>
        <p className="mt-2 text-muted">Questions about tags, orders or your account? Write to us: we reply by e-mail within 24 hours.</p>
        <div className="mt-6 rounded-xl border border-line bg-white p-5 shadow-sm sm:p-8">
          <FieldsForm
            action={sendContactAction}
            formLabel="Contact us"
            keepFieldsOnSuccess={false}
            fields={[
              { name: "name", label: "Your name", autoComplete: "name", maxLength: 100 },
              { name: "email", label: "Your e-mail address", kind: "email", autoComplete: "email", maxLength: 254, hint: "We send our answer here." },
              { name: "subject", label: "Subject", maxLength: 100 },
              { name: "message", label: "Message", kind: "textarea", rows: 6, maxLength: 2000, hint: "At most 2000 characters." },
            ]}
            submitLabel="Send message"
            pendingLabel="Sending…"
          />
        </div>
      </div>
    </div>
  );
}
