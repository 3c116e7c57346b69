import type { Metadata } from "next";
import Link from "next/link";
import { DateTime } from "@/components/dashboard/date-time";
import { PageHeading } from "@/components/dashboard/page-heading";
import { Panel } from "@/components/dashboard/panel";
import { ActionForm } from "@/components/forms/action-form";
import { requireUserContext } from "@/lib/http/page-context";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { getMe } from "@/lib/services/auth";
import { updateProfileAction } from "./actions";
import { RelayPhonePanel } from "./phone-panel";

export const metadata: Metadata = { title: "Profile" };

const plans = { FREE: "Free (up to 5 tags)", PRO: "Pro (up to 50 tags)", PREMIUM: "Premium (up to 500 tags)" } as const;

export default async function ProfilePage() {
  const ctx = await requireUserContext("/dashboard/account");
  const timeZone = await viewerTimeZone();
  const me = await getMe(ctx);

  return (
    <>
      <PageHeading title="Profile">The details of your account. People who find your things never see your e-mail address.</PageHeading>
      <div className="flex flex-col gap-6">
        <Panel id="account-details" title="Account">
          <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]">
            <dt className="font-semibold text-ink">E-mail address</dt>
            <dd className="break-all text-ink">
              {me.email}{" "}
              <span className={me.emailVerified ? "text-green-800" : "text-reward-800"}>({me.emailVerified ? "confirmed" : "not confirmed yet"})</span>
            </dd>
            <dt className="font-semibold text-ink">Plan</dt>
            <dd className="text-ink">
              {plans[me.subscription]}{" "}
              <Link href="/dashboard/billing" className="font-semibold text-brand-700 underline hover:text-brand-800">
                {me.subscription === "FREE" ? "Upgrade or see billing" : "Billing"}
              </Link>
            </dd>
            <dt className="font-semibold text-ink">Member since</dt>
            <dd className="text-ink">
              <DateTime iso={me.createdAt} timeZone={timeZone} dateOnly />
            </dd>
          </dl>
        </Panel>
        <Panel id="profile" title="Name and phone">
          <ActionForm
            action={updateProfileAction}
            keepFieldsOnSuccess
            formLabel="Name and phone"
            fields={[
              { name: "firstName", label: "First name", autoComplete: "given-name", defaultValue: me.firstName, maxLength: 100 },
              { name: "lastName", label: "Last name", autoComplete: "family-name", defaultValue: me.lastName, maxLength: 100 },
              {
                name: "phone",
                label: "Phone number",
                type: "tel",
                autoComplete: "tel",
                optional: true,
                defaultValue: me.phone ?? "",
                maxLength: 30,
                hint: "Digits, spaces, brackets and dashes, with an optional leading +.",
              },
            ]}
            submitLabel="Save profile"
            pendingLabel="Saving…"
          />
        </Panel>
        <RelayPhonePanel ctx={ctx} timeZone={timeZone} />
      </div>
    </>
  );
}
