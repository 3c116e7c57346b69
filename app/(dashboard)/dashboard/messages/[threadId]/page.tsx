import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { BackLink } from "@/components/dashboard/back-link";
import { DateTime } from "@/components/dashboard/date-time";
import { noticeFrom } from "@/components/dashboard/notices";
import { PageHeading } from "@/components/dashboard/page-heading";
import { Panel } from "@/components/dashboard/panel";
import { FormAlert } from "@/components/forms/form-alert";
import { MapLegend, mapPlacesOf, PlaceList, type ListedPlace } from "@/components/maps/place-list";
import { PlacesMap } from "@/components/maps/places-map";
import { SubmitButton } from "@/components/forms/submit-button";
import { replyPanelDescription, threadSubject, threadTitle } from "@/components/messages/labels";
import { ScamWarning } from "@/components/messages/scam-warning";
import { ThreadStatusBadge } from "@/components/messages/thread-status-badge";
import { FieldsForm } from "@/components/tags/fields-form";
import { countryName } from "@/components/tags/scan-list";
import { formatPlace } from "@/lib/maps/links";
import { formatMoney } from "@/lib/i18n/money";
import { messageEndpoints } from "@/lib/http/endpoints/messages";
import { requireUserContext } from "@/lib/http/page-context";
import { pageParams } from "@/lib/http/page-input";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { NotFoundError } from "@/lib/services/errors";
import { listRewards, type RewardRecord } from "@/lib/services/rewards";
import { getThread, markThreadRead, MESSAGE_MAX_LENGTH, type MessageLocation, type OwnerThread, type ThreadMessageRecord, type ThreadStatus } from "@/lib/services/messages";
import { type ScanRecord, tagMapPlaces } from "@/lib/services/tags";
import { confirmReturnForThreadAction, replyAction, setThreadStatusAction } from "./actions";

export const metadata: Metadata = { title: "Conversation" };

type Params = Promise<{ threadId: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The owner's conversation, or the 404 page: someone else's and a malformed id read as missing. Opening it marks it read. */
async function loadThread(rawId: string) {
  const ctx = await requireUserContext(`/dashboard/messages/${rawId}`);
  const { threadId } = await pageParams(messageEndpoints.get, { threadId: rawId });
  try {
    const thread = await getThread(ctx, threadId);
    await markThreadRead(ctx, thread.threadId);
    const [{ items }, scans] = await Promise.all([listRewards(ctx, { page: 1, limit: 1, tagId: thread.tagId }), scansAround(ctx, thread)]);
    return { ...thread, reward: items[0] ?? null, scans };
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
}

/** How long before a conversation began its tag's scans are shown beside it: the finder usually scanned just before writing. */
const SCANS_BEFORE_CONVERSATION_MS = 24 * 60 * 60_000;

/**
 * The tag's real scans (not shared locations: this conversation's are its own messages) from the day
 * before the conversation began: where the finder's phone probably scanned it. None once the tag is no
 * longer the owner's (a transfer): its scans are the new owner's.
 */
async function scansAround(ctx: Awaited<ReturnType<typeof requireUserContext>>, thread: OwnerThread): Promise<ScanRecord[] | null> {
  try {
    const places = await tagMapPlaces(ctx, thread.tagId);
    const since = Date.parse(thread.createdAt) - SCANS_BEFORE_CONVERSATION_MS;
    return [...places.located, ...places.cityOnly]
      .filter((scan) => !scan.locationShared && Date.parse(scan.scannedAt) >= since)
      .sort((a, b) => b.scannedAt.localeCompare(a.scannedAt));
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

const statusNotices = {
  "reward-returned-finder": { tone: "success", text: "Return confirmed for this finder. Their conversation now shows the thanks and the certificate; pay the reward as you agreed, then record the payment." },
  active: { tone: "success", text: "The conversation is open again: you and the finder can both write." },
  closed: { tone: "success", text: "The conversation is closed. The finder can still read it but can no longer write." },
  blocked: { tone: "success", text: "The finder is blocked. They can no longer write to you here, and are not told why." },
} as const;

export default async function ThreadPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { threadId } = await params;
  const thread = await loadThread(threadId);
  const timeZone = await viewerTimeZone();
  const notice = noticeFrom(await searchParams, statusNotices);
  const title = threadTitle(thread);

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <BackLink href="/dashboard/messages">Messages</BackLink>
      <div>
        <PageHeading title={title}>
          <p className="flex flex-wrap items-center gap-2">
            <ThreadStatusBadge status={thread.status} />
            <span>
              About {threadSubject(thread)} · started <DateTime iso={thread.createdAt} timeZone={timeZone} />
            </span>
          </p>
        </PageHeading>
        {notice ? <FormAlert tone={notice.tone} title={notice.text} className="-mt-2" /> : null}
      </div>

      <section aria-labelledby="messages-heading" className="rounded-xl border border-line bg-white p-4 shadow-sm sm:p-6">
        <h2 id="messages-heading" className="sr-only">
          Messages
        </h2>
        <ol aria-label="Messages, oldest first" className="flex flex-col gap-4">
          {thread.messages.map((message) => (
            <MessageItem key={message.id} message={message} finderLabel={title} timeZone={timeZone} />
          ))}
        </ol>
      </section>

      <LocationsPanel thread={thread} finderLabel={title} timeZone={timeZone} />

      <ReplyPanel thread={thread} />
      <RewardPanel thread={thread} />
      <StatusPanel thread={thread} />
    </div>
  );
}

function MessageItem({ message, finderLabel, timeZone }: { message: ThreadMessageRecord; finderLabel: string; timeZone: string }) {
  const mine = message.sender === "OWNER";
  const warningId = `warning-${message.id}`;
  return (
    <li data-sender={message.sender} data-location={message.location ? "" : undefined} className={`flex flex-col gap-2 ${mine ? "items-end" : "items-start"}`}>
      <div
        aria-describedby={message.warnings.length ? warningId : undefined}
        className={`max-w-[85%] rounded-2xl px-4 py-3 ${mine ? "rounded-br-sm bg-brand-700 text-white" : "rounded-bl-sm border border-line bg-canvas text-ink"}`}
      >
        <p className={`text-xs font-semibold ${mine ? "text-brand-50" : "text-muted"}`}>
          {mine ? "You" : finderLabel} · <DateTime iso={message.createdAt} timeZone={timeZone} />
        </p>
        {message.location ? <SharedPlace location={message.location} /> : <p className="mt-1 whitespace-pre-wrap wrap-anywhere">{message.content}</p>}
      </div>
      {message.warnings.length ? (
        <div className="w-full max-w-[85%]">
          <ScamWarning id={warningId} warnings={message.warnings} />
        </div>
      ) : null}
      {mine ? null : (
        <a href={`/dashboard/account/safety?messageId=${message.id}${message.warnings.length ? "&type=SCAM" : ""}`} className="text-sm font-semibold text-brand-700 underline" aria-label={`Report this message from ${finderLabel}`}>
          Report
        </a>
      )}
    </li>
  );
}

/** A shared location inside its message: the place, its accuracy, and a link to it on the map below. */
function SharedPlace({ location }: { location: MessageLocation }) {
  return (
    <div className="mt-1 flex flex-col gap-0.5" data-testid="shared-location">
      <p className="font-semibold">Shared their location</p>
      <p className="break-words">
        {formatPlace(location.latitude, location.longitude)}
        {location.accuracy !== null ? ` (within ${Math.round(location.accuracy)} m)` : ""}
      </p>
      <p>
        <a href="#shared-locations-heading" className="font-semibold text-brand-700 underline">
          See it on the map
        </a>
      </p>
    </div>
  );
}

/**
 * The places of this conversation on a map (Leaflet with OpenStreetMap tiles, loaded on this page only):
 * the finder's shared locations and the tag's scans around the time they wrote; the same places listed
 * below it with OpenStreetMap and geo: links, which work without JavaScript. Shown once there is a place.
 */
function LocationsPanel({ thread, finderLabel, timeZone }: { thread: OwnerThread & { scans: ScanRecord[] | null }; finderLabel: string; timeZone: string }) {
  const shared: ListedPlace[] = thread.messages.flatMap((message) =>
    message.location ? [{ id: message.id, kind: "shared" as const, title: `Shared by ${finderLabel}`, ...message.location, at: message.createdAt }] : [],
  );
  const scans: ListedPlace[] = (thread.scans ?? []).map((scan) => ({
    id: scan.id,
    kind: "scan" as const,
    title: "Real scan",
    detail: [scan.agent, [scan.city, countryName(scan.country)].filter(Boolean).join(", ")].filter(Boolean).join(" · ") || null,
    latitude: scan.latitude,
    longitude: scan.longitude,
    accuracy: null,
    at: scan.scannedAt,
  }));
  if (shared.length === 0 && scans.length === 0) return null;
  const newestFirst = [...shared].reverse();
  return (
    <Panel
      id="shared-locations"
      title="Where the finder is"
      description="Places the finder shared here (precise: their phone measured them) and the tag's real scans from the day before this conversation began (approximate: where the network placed the phone, often only the city)."
    >
      <div className="flex flex-col gap-4">
        <PlacesMap places={mapPlacesOf([...newestFirst, ...scans], timeZone)} label="Map of shared locations" describedBy="shared-locations-list-heading" />
        <MapLegend scans={scans.some((scan) => scan.latitude !== null)} />
        <div>
          <h3 id="shared-locations-list-heading" className="text-base font-semibold text-ink">
            Places, newest first
          </h3>
          <PlaceList places={[...newestFirst, ...scans]} timeZone={timeZone} label="Shared locations and scans" />
        </div>
        <p className="text-sm">
          <Link href={`/dashboard/tags/${thread.tagId}/map`} className="font-semibold text-brand-700 underline">
            See every scan of this tag on its map
          </Link>
        </p>
      </div>
    </Panel>
  );
}

function ReplyPanel({ thread }: { thread: OwnerThread }) {
  const flagged = thread.messages.some((message) => message.sender === "FINDER" && message.warnings.length > 0);
  if (thread.status !== "ACTIVE") {
    return (
      <FormAlert tone="info" title={thread.status === "CLOSED" ? "This conversation is closed." : "You blocked this finder."}>
        Reopen it below to reply. The finder can read the conversation but cannot write while it is {thread.status === "CLOSED" ? "closed" : "blocked"}.
      </FormAlert>
    );
  }
  return (
    <Panel
      id="reply"
      title="Reply"
      description={replyPanelDescription(thread)}
    >
      {flagged ? (
        <FormAlert tone="error" title="Careful: this finder's messages look like a scam.">
          Keep the talk here and do not send your phone number, e-mail or home address. A reply that contains one is sent only if you tick the box below.
        </FormAlert>
      ) : null}
      <FieldsForm
        action={replyAction}
        hidden={{ threadId: thread.threadId }}
        fields={[
          { kind: "textarea", name: "content", label: "Your reply", rows: 4, maxLength: MESSAGE_MAX_LENGTH },
          // Asked before sending, not after: the server refuses such a reply to a flagged conversation without it.
          ...(flagged ? [{ kind: "checkbox" as const, name: "confirmContactDetails", label: "Send my phone number, e-mail or address to this finder anyway" }] : []),
        ]}
        submitLabel="Send reply"
        pendingLabel="Sending…"
        formLabel="Reply to the finder"
      />
    </Panel>
  );
}

const statusButtons: Record<ThreadStatus, { status: ThreadStatus; label: string; variant: "primary" | "secondary" | "danger" }[]> = {
  ACTIVE: [
    { status: "CLOSED", label: "Close conversation", variant: "secondary" },
    { status: "BLOCKED", label: "Block finder", variant: "danger" },
  ],
  CLOSED: [
    { status: "ACTIVE", label: "Reopen conversation", variant: "primary" },
    { status: "BLOCKED", label: "Block finder", variant: "danger" },
  ],
  BLOCKED: [
    { status: "ACTIVE", label: "Unblock and reopen", variant: "secondary" },
    { status: "CLOSED", label: "Unblock but keep closed", variant: "secondary" },
  ],
};

function StatusPanel({ thread }: { thread: OwnerThread }) {
  return (
    <Panel
      id="conversation-status"
      title="Conversation"
      description="Close a conversation once the item is back. Block a finder who harasses you or tries to scam you: they can no longer write here, and if they wrote while signed in, their account can no longer contact you about any tag. Nobody is told."
    >
      <div className="flex flex-wrap gap-3">
        {statusButtons[thread.status].map((button) => (
          <form key={button.status} action={setThreadStatusAction}>
            <input type="hidden" name="threadId" value={thread.threadId} />
            <input type="hidden" name="status" value={button.status} />
            <SubmitButton variant={button.variant} pendingLabel="Saving…">
              {button.label}
            </SubmitButton>
          </form>
        ))}
      </div>
    </Panel>
  );
}

/**
 * The tag's reward seen from the conversation, with the one rule that defeats "send money first" scams: the
 * finder holds a handover code; ask for it at the meeting with the item in hand, and pay only after.
 */
function RewardPanel({ thread }: { thread: OwnerThread & { reward: RewardRecord | null } }) {
  const { reward } = thread;
  const rewardLink = `/dashboard/tags/${thread.tagId}#reward-heading`;
  if (!reward || reward.status === "PAID" || reward.status === "DISPUTED") {
    return (
      <Panel id="reward" title="Reward" description="A reward often brings a lost thing back sooner. Finders see it on the tag's page and here, and you pay it yourself once you have the item back.">
        <Link href={rewardLink} className="btn-secondary">
          Offer a reward
        </Link>
      </Panel>
    );
  }
  const amount = formatMoney(reward.amount, reward.currency);
  return (
    <Panel id="reward" title={`Reward: ${amount}`}>
      {reward.status === "ACTIVE" ? (
        <div className="flex flex-col gap-3 text-ink">
          <p>The finder&apos;s conversation shows them a one-time 6-digit handover code, which you never see here.</p>
          <p className="font-semibold">At the meeting, with your item in your hands, ask the finder for the code and enter it when you confirm the return. Pay only after that.</p>
          <p className="text-sm text-muted">Anyone who asks for money before you have your item back, or cannot give you the code, is not the finder.</p>
          <p>
            <Link href={rewardLink} className="btn-primary">
              Confirm the return with the code
            </Link>
          </p>
          <div className="border-t border-line pt-4">
            <h3 className="text-base font-semibold text-ink">No code? Confirm the return for this finder</h3>
            <p className="mt-1 text-sm text-muted">
              If this finder gave your item back without the code (you met in person, their phone was flat), you can name them yourself. The reward, the thanks and the certificate then go
              to this conversation only; the certificate says you confirmed it, not that a code was checked. The tag&apos;s other conversations are closed and told your item is home.
            </p>
            <FieldsForm
              action={confirmReturnForThreadAction}
              hidden={{ threadId: thread.threadId }}
              fields={[{ kind: "checkbox", name: "confirmed", label: "This finder gave my item back to me" }]}
              submitLabel="Confirm the return for this finder"
              pendingLabel="Confirming…"
              variant="secondary"
              formLabel="Confirm the return for this finder"
              className="mt-3"
            />
          </div>
        </div>
      ) : (
        <div className="flex flex-col gap-3 text-ink">
          <p>
            The return is confirmed{reward.verifiedHandover ? " with the finder's handover code" : ""}
            {reward.finderThreadId === thread.threadId ? " for this finder" : reward.finderThreadId ? " for the finder of another conversation" : ""}. Pay the finder as you agreed, then record the payment.
          </p>
          <p>
            <Link href={rewardLink} className="btn-primary">
              Record the payment
            </Link>
          </p>
        </div>
      )}
    </Panel>
  );
}
