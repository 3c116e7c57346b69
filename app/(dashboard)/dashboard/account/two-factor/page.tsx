import type { Metadata } from "next";
import { noticeFrom } from "@/components/dashboard/notices";
import { PageHeading } from "@/components/dashboard/page-heading";
import { Panel } from "@/components/dashboard/panel";
import { ActionForm } from "@/components/forms/action-form";
import { FormAlert } from "@/components/forms/form-alert";
import { requireUserContext } from "@/lib/http/page-context";
import { getMe } from "@/lib/services/auth";
import { disableTwoFactorAction } from "./actions";
import { TwoFactorSetup } from "./two-factor-setup";

export const metadata: Metadata = { title: "Two-factor authentication" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function TwoFactorPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireUserContext("/dashboard/account/two-factor");
  const me = await getMe(ctx);
  const notice = noticeFrom(await searchParams, { disabled: { tone: "success", text: "Two-factor authentication is off." } });

  return (
    <>
      <PageHeading title="Two-factor authentication">
        With two-factor authentication, signing in needs your password and a code from an app on your phone, so a stolen password alone is not enough.
      </PageHeading>
      {notice && !me.twoFactorEnabled ? <FormAlert tone={notice.tone} title={notice.text} className="mb-6" /> : null}
      {me.twoFactorEnabled ? (
        <div className="flex flex-col gap-6">
          <Panel id="two-factor-status" title="Status: on">
            <p className="text-sm text-ink">
              Signing in asks for a code from your authenticator app. If you lose your phone, use one of your backup codes instead.
            </p>
          </Panel>
          <Panel
            id="two-factor-disable"
            title="Turn off two-factor authentication"
            tone="danger"
            description="Your account will then be protected by your password alone."
          >
            <ActionForm
              action={disableTwoFactorAction}
              formLabel="Turn off two-factor authentication"
              fields={[
                {
                  name: "code",
                  label: "Code from your app, or a backup code",
                  autoComplete: "one-time-code",
                  maxLength: 20,
                  spellCheck: false,
                  autoCapitalize: "characters",
                },
              ]}
              submitLabel="Turn off two-factor"
              pendingLabel="Turning off…"
              variant="danger"
            />
          </Panel>
        </div>
      ) : (
        <TwoFactorSetup />
      )}
    </>
  );
}
