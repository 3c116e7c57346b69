import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/forms/action-form";
import { AuthCard, textLinkClass } from "@/components/forms/auth-card";
import { FormAlert } from "@/components/forms/form-alert";
import { currentUserContext } from "@/lib/http/page-context";
import { ALREADY_CONFIRMED_MESSAGE, emailLinkAlreadyConfirmed } from "@/lib/services/auth";
import { systemContext } from "@/lib/services/context";
import { firstParam } from "../login/safe-next";
import { verifyEmailAction } from "./actions";

export const metadata: Metadata = { title: "Confirm your e-mail address", robots: { index: false }, referrer: "no-referrer" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function VerifyEmailPage({ searchParams }: { searchParams: SearchParams }) {
  const token = firstParam((await searchParams).token)?.trim() ?? "";
  const signedIn = Boolean(await currentUserContext());
  const continueLink = signedIn ? { href: "/dashboard", label: "Go to your dashboard" } : { href: "/login", label: "Sign in" };
  // A link opened again after the address was confirmed needs no button (the action says the same if clicked).
  const alreadyConfirmed = token.length > 0 && token.length <= 200 && (await emailLinkAlreadyConfirmed(systemContext(), { token }));
  const continueButton = (
    <p>
      <Link href={continueLink.href} className="btn-primary w-full sm:w-auto">
        {continueLink.label}
      </Link>
    </p>
  );

  return (
    <AuthCard title="Confirm your e-mail address" description="One click to confirm that this address is yours and that messages about your tags reach you.">
      {alreadyConfirmed ? (
        <div className="flex flex-col gap-4">
          <FormAlert tone="success" title={ALREADY_CONFIRMED_MESSAGE} />
          {continueButton}
        </div>
      ) : token ? (
        <ActionForm
          action={verifyEmailAction}
          hidden={{ token }}
          submitLabel="Confirm my e-mail address"
          pendingLabel="Confirming…"
          successContent={continueButton}
        />
      ) : (
        <FormAlert tone="error" title="This page needs the link from the confirmation e-mail.">
          Open the link in the e-mail we sent you.{" "}
          {signedIn ? (
            <>
              You can ask for a new one from{" "}
              <Link href="/dashboard" className={textLinkClass}>
                your dashboard
              </Link>
              .
            </>
          ) : null}
        </FormAlert>
      )}
    </AuthCard>
  );
}
