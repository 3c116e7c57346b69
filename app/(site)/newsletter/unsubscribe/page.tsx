import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/forms/action-form";
import { AuthCard } from "@/components/forms/auth-card";
import { FormAlert } from "@/components/forms/form-alert";
import { isValidUnsubscribeToken } from "@/lib/services/contact";
import { firstParam } from "../../login/safe-next";
import { unsubscribeNewsletterAction } from "../actions";

export const metadata: Metadata = { title: "Unsubscribe", robots: { index: false }, referrer: "no-referrer" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** A campaign's unsubscribe link: a button that confirms, since a GET (a link scanner's) must not unsubscribe. */
export default async function NewsletterUnsubscribePage({ searchParams }: { searchParams: SearchParams }) {
  const token = firstParam((await searchParams).token)?.trim() ?? "";
  const valid = token.length > 0 && token.length <= 200 && isValidUnsubscribeToken(token);
  return (
    <AuthCard title="Unsubscribe from the newsletter" description={valid ? "You will get no more newsletters at this address. You can subscribe again at any time." : undefined}>
      {valid ? (
        <ActionForm
          action={unsubscribeNewsletterAction}
          hidden={{ token }}
          submitLabel="Unsubscribe"
          pendingLabel="Unsubscribing…"
          successContent={
            <p>
              <Link href="/" className="btn-secondary w-full sm:w-auto">
                Back to the home page
              </Link>
            </p>
          }
        />
      ) : (
        <FormAlert tone="error" title="This unsubscribe link is invalid.">
          Open the link at the bottom of one of our newsletters, or write to us through the <Link href="/contact" className="font-semibold underline">contact form</Link>.
        </FormAlert>
      )}
    </AuthCard>
  );
}
