import type { Metadata } from "next";
import { DateTime } from "@/components/dashboard/date-time";
import { noticeFrom } from "@/components/dashboard/notices";
import { PageHeading } from "@/components/dashboard/page-heading";
import { Panel } from "@/components/dashboard/panel";
import { FormAlert } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { requireUserContext } from "@/lib/http/page-context";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { listSessions, type SessionView } from "@/lib/services/auth";
import { sessionsWithPush } from "@/lib/services/notifications";
import { SignOutButton } from "../../../sign-out-button";
import { revokeOtherSessionsAction, revokeSessionAction } from "./actions";
import { describeUserAgent } from "./user-agent";

export const metadata: Metadata = { title: "Sessions" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function SessionsPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireUserContext("/dashboard/account/sessions");
  const timeZone = await viewerTimeZone();
  const [sessions, withPush] = await Promise.all([listSessions(ctx), sessionsWithPush(ctx)]);
  const params = await searchParams;
  const count = Number(Array.isArray(params.count) ? params.count[0] : params.count) || 0;
  const notice = noticeFrom(params, {
    revoked: { tone: "success", text: "The session was revoked: that device is signed out." },
    missing: { tone: "error", text: "That session was already signed out." },
    "others-revoked": { tone: "success", text: count === 1 ? "1 other session was signed out." : `${count} other sessions were signed out.` },
  });
  const others = sessions.filter((session) => !session.current);

  return (
    <>
      <PageHeading title="Sessions">
        Every browser and app signed in to your account. If you see one you do not recognise, revoke it and change your password. A device
        you sign out also stops getting push notifications.
      </PageHeading>
      {notice ? <FormAlert tone={notice.tone} title={notice.text} className="mb-6" /> : null}
      <Panel id="sessions" title={`Signed in on ${sessions.length} ${sessions.length === 1 ? "device" : "devices"}`}>
        <ul className="flex flex-col divide-y divide-line">
          {sessions.map((session) => (
            <SessionRow key={session.id} session={session} push={withPush.has(session.id)} timeZone={timeZone} />
          ))}
        </ul>
        {others.length > 0 ? (
          <form action={revokeOtherSessionsAction} className="mt-5 border-t border-line pt-5">
            <SubmitButton variant="secondary" pendingLabel="Signing out…">
              Sign out everywhere else
            </SubmitButton>
          </form>
        ) : null}
      </Panel>
    </>
  );
}

function SessionRow({ session, push, timeZone }: { session: SessionView; push: boolean; timeZone: string }) {
  const device = describeUserAgent(session.userAgent);
  const headingId = `session-${session.id}`;
  return (
    <li aria-labelledby={headingId} className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p id={headingId} className="flex flex-wrap items-center gap-2 font-semibold text-ink">
          {device}
          {session.current ? <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-900">This device</span> : null}
          {push ? <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-900">Push on</span> : null}
        </p>
        <dl className="mt-1 grid grid-cols-[max-content_1fr] gap-x-3 text-sm text-muted">
          <dt>Last active</dt>
          <dd>
            <DateTime iso={session.lastUsedAt} timeZone={timeZone} />
          </dd>
          <dt>Signed in</dt>
          <dd>
            <DateTime iso={session.createdAt} timeZone={timeZone} />
          </dd>
          <dt>IP address</dt>
          <dd>{session.ipAddress ?? "unknown"}</dd>
        </dl>
      </div>
      {session.current ? (
        <SignOutButton />
      ) : (
        <form action={revokeSessionAction}>
          <input type="hidden" name="sessionId" value={session.id} />
          <SubmitButton variant="secondary" pendingLabel="Revoking…" className="min-h-10 px-4 py-2 text-sm">
            Revoke<span className="sr-only"> the session on {device}</span>
          </SubmitButton>
        </form>
      )}
    </li>
  );
}
