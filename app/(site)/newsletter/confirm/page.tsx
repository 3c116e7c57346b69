import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/forms/auth-card";
import { FormAlert } from "@/components/forms/form-alert";
import { confirmNewsletterSubscription } from "@/lib/services/contact";
import { systemContext } from "@/lib/services/context";
import { ValidationError } from "@/lib/services/errors";
import { firstParam } from "../../login/safe-next";

export const metadata: Metadata = { title: "Confirm your subscription", robots: { index: false }, referrer: "no-referrer" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The confirmation e-mail's link: confirms on the server (GET /contact/newsletter/confirm's service) and says so. */
export default async function NewsletterConfirmPage({ searchParams }: { searchParams: SearchParams }) {
  const token = firstParam((await searchParams).token)?.trim() ?? "";
  let outcome: { ok: true; message: string } | { ok: false; message: string };
  if (!token || token.length > 200) {
    outcome = { ok: false, message: "This page needs the link from the confirmation e-mail." };
  } else {
    try {
      outcome = { ok: true, message: (await confirmNewsletterSubscription(systemContext(), token)).message };
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      outcome = { ok: false, message: error.message };
    }
  }
  return (
    <AuthCard title="Newsletter subscription">
      <div className="flex flex-col gap-4">
        <FormAlert tone={outcome.ok ? "success" : "error"} title={outcome.message} />
        <p>
          <Link href="/" className="btn-secondary w-full sm:w-auto">
            Back to the home page
          </Link>
        </p>
      </div>
    </AuthCard>
  );
}
