import type { Metadata } from "next";
import { DateTime } from "@/components/dashboard/date-time";
import { noticeFrom } from "@/components/dashboard/notices";
import { PageHeading } from "@/components/dashboard/page-heading";
import { Panel } from "@/components/dashboard/panel";
import { FormAlert } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { requireUserContext } from "@/lib/http/page-context";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { localDate } from "@/lib/i18n/time-zones";
import { listApiKeys, type ApiKeyView } from "@/lib/services/auth";
import { revokeApiKeyAction } from "./actions";
import { CreateKeyForm } from "./create-key-form";

export const metadata: Metadata = { title: "API keys" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function ApiKeysPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireUserContext("/dashboard/account/api-keys");
  const [keys, timeZone] = await Promise.all([listApiKeys(ctx), viewerTimeZone()]);
  const notice = noticeFrom(await searchParams, {
    revoked: { tone: "success", text: "The API key was revoked; it no longer works." },
    missing: { tone: "error", text: "That API key was already revoked." },
  });

  return (
    <>
      <PageHeading title="API keys">
        Keys let your own scripts and apps use the{" "}
        <a href="/docs" className="font-semibold text-brand-700 underline hover:text-brand-800">
          Tag Service API
        </a>{" "}
        as you. A key can do what you can, except manage keys, sessions, your password, two-factor, or export or delete the account.
      </PageHeading>
      {notice ? <FormAlert tone={notice.tone} title={notice.text} className="mb-6" /> : null}
      <div className="flex flex-col gap-6">
        <Panel id="create-key" title="Create a key">
          <CreateKeyForm today={localDate(new Date(), timeZone)} timeZone={timeZone} />
        </Panel>
        <Panel id="keys" title="Your keys">
          {keys.length === 0 ? (
            <p className="text-sm text-muted">You have no API keys.</p>
          ) : (
            <ul className="flex flex-col divide-y divide-line">
              {keys.map((key) => (
                <KeyRow key={key.id} apiKey={key} timeZone={timeZone} />
              ))}
            </ul>
          )}
        </Panel>
      </div>
    </>
  );
}

function hasExpired(expiresAt: string | null): boolean {
  return expiresAt !== null && new Date(expiresAt).getTime() <= Date.now();
}

function KeyRow({ apiKey, timeZone }: { apiKey: ApiKeyView; timeZone: string }) {
  const headingId = `key-${apiKey.id}`;
  const expired = hasExpired(apiKey.expiresAt);
  return (
    <li aria-labelledby={headingId} className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p id={headingId} className="font-semibold break-words text-ink">
          {apiKey.name}
        </p>
        <dl className="mt-1 grid grid-cols-[max-content_1fr] gap-x-3 text-sm text-muted">
          <dt>Key</dt>
          <dd className="font-mono break-all">
            {apiKey.prefix}…{apiKey.last4}
          </dd>
          <dt>Created</dt>
          <dd>
            <DateTime iso={apiKey.createdAt} timeZone={timeZone} dateOnly />
          </dd>
          <dt>Last used</dt>
          <dd>
            <DateTime iso={apiKey.lastUsedAt} timeZone={timeZone} fallback="never" />
          </dd>
          <dt>Expires</dt>
          <dd>
            <DateTime iso={apiKey.expiresAt} timeZone={timeZone} fallback="never" />
            {expired ? " (expired)" : ""}
          </dd>
        </dl>
      </div>
      <form action={revokeApiKeyAction}>
        <input type="hidden" name="keyId" value={apiKey.id} />
        <SubmitButton variant="secondary" pendingLabel="Revoking…" className="min-h-10 px-4 py-2 text-sm">
          Revoke<span className="sr-only"> the key {apiKey.name}</span>
        </SubmitButton>
      </form>
    </li>
  );
}
