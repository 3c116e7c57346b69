import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { BrowserTimeZone } from "@/components/browser-time-zone";
import { CopyButton } from "@/components/copy-button";
import { MessageForm } from "@/components/finder/message-form";
import { FinderCard, SafetyAdvice, ScamWarnings } from "@/components/finder/panels";
import { ShareLocation } from "@/components/finder/share-location";
import { SubmitButton } from "@/components/forms/submit-button";
import { env } from "@/lib/env";
import { isFinderLocale } from "@/lib/i18n/locales";
import { optionalUserContext } from "@/lib/http/page-context";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { formatPlace, geoUri, openStreetMapUrl } from "@/lib/maps/links";
import { getFinderThread, scamWarningText, type FinderThread, type MessageLocation } from "@/lib/services/messages";
import { NotFoundError } from "@/lib/services/errors";
import { finderReward, type FinderReward } from "@/lib/services/rewards";
import { formatMoney } from "@/lib/i18n/money";
import { ThreadLive } from "@/components/finder/thread-live";
import { emailThreadLinkAction, finderEmailOptInAction, finderReplyAction } from "./actions";

type Params = Promise<{ token: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("Thread");
  // The token in this address is the only key to the conversation: keep it out of indexes and out of
  // other sites' referrers. "same-origin", not "no-referrer": that would make the reply form's POST carry
  // `Origin: null`, which Next's server-action origin check refuses.
  return { title: t("pageTitle"), robots: { index: false, follow: false }, referrer: "same-origin" };
}

/**
 * The finder's side of a conversation, reached only by its token. Right after contacting, it shows the
 * link to keep (copy, and "e-mail it to me" when the finder gave an address). Replies post without JavaScript.
 */
export default async function FinderThreadPage({ params, searchParams }: { params: Params; searchParams: Search }) {
  const [{ token }, search] = await Promise.all([params, searchParams]);
  const t = await getTranslations("Thread");
  const finder = await getTranslations("Finder");
  const format = await getFormatter();
  const locale = await getLocale();
  // The finder's own zone (their browser's, through <BrowserTimeZone />), named beside each time, so the
  // finder and the owner read the same instant each in their own zone.
  const timeZone = await viewerTimeZone();
  const when = (iso: string) =>
    format.dateTime(new Date(iso), { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short", timeZone });

  let thread: FinderThread;
  let reward: FinderReward;
  try {
    const ctx = await optionalUserContext();
    thread = await getFinderThread(ctx, token);
    reward = await finderReward(ctx, token);
  } catch (error) {
    // notFound() so an unknown token answers 404, not a 200 page that says "not found".
    if (error instanceof NotFoundError) notFound();
    throw error;
  }

  const link = `${env.APP_URL.replace(/\/+$/, "")}/thread/${token}`;
  const justSent = search.sent === "1";
  const emailed = search.emailed === "1";
  const active = thread.status === "ACTIVE";

  return (
    <>
      <BrowserTimeZone />
      {justSent || emailed ? (
        <FinderCard labelledBy="thread-keep" className="border-green-700 bg-green-50">
          <h1 id="thread-keep" className="text-lg font-bold text-green-900">
            {emailed ? finder("emailedLink") : finder("sent")}
          </h1>
          <p className="text-green-900">{finder("keepLink")}</p>
          <p className="break-all rounded-md bg-white px-3 py-2 font-mono text-sm text-ink" data-testid="thread-link">
            {link}
          </p>
          <CopyButton text={link} label={finder("copyLink")} copiedLabel={finder("copied")} failedLabel={finder("copyUnavailable")} />
          {justSent && search.email === "1" ? (
            <form action={emailThreadLinkAction}>
              <input type="hidden" name="token" value={token} />
              <SubmitButton variant="link">{finder("emailMe")}</SubmitButton>
            </form>
          ) : null}
        </FinderCard>
      ) : null}

      {reward.offered ? <RewardCard reward={reward} /> : null}

      <FinderCard labelledBy="thread-heading">
        {justSent || emailed ? (
          <h2 id="thread-heading" className="text-xl font-bold text-ink">
            {t("heading")}
          </h2>
        ) : (
          <h1 id="thread-heading" className="text-xl font-bold text-ink">
            {t("heading")}
          </h1>
        )}
        {thread.tagName ? <p className="text-muted">{t("about", { item: thread.tagName })}</p> : null}
        {!justSent ? <p className="text-sm text-muted">{t("keepLink")}</p> : null}
        <p className="text-sm text-muted" data-testid="thread-time-zone">
          {t("timesIn", { zone: timeZone })}
        </p>
        <ol className="flex flex-col gap-3" aria-label={t("heading")}>
          {thread.messages.length === 0 ? <li className="text-muted">{t("empty")}</li> : null}
          {thread.messages.map((message, index) => {
            const mine = message.sender === "FINDER";
            const warnings = message.warnings.map((code) => scamWarningText(code, isFinderLocale(locale) ? locale : "en"));
            return (
              <li
                key={message.id}
                id={index === thread.messages.length - 1 ? "latest" : undefined}
                data-sender={message.sender}
                data-location={message.location ? "" : undefined}
                className={`flex flex-col gap-1.5 ${mine ? "items-end" : "items-start"}`}
              >
                <div className={`max-w-[85%] rounded-2xl px-3.5 py-2.5 ${mine ? "bg-brand-700 text-white" : "border border-line bg-canvas text-ink"}`}>
                  <p className={`text-xs font-semibold ${mine ? "text-brand-100" : "text-muted"}`}>
                    {mine ? t("you") : t("owner")} · <time dateTime={message.createdAt}>{when(message.createdAt)}</time>
                  </p>
                  {message.location ? (
                    <SharedPlace location={message.location} when={when(message.createdAt)} light={mine} />
                  ) : (
                    <p className="mt-1 whitespace-pre-line break-words">{message.content}</p>
                  )}
                </div>
                <div className="max-w-[85%]">
                  <ScamWarnings heading={finder("scamHeading")} texts={warnings} />
                </div>
              </li>
            );
          })}
        </ol>
        <p>
          {/* No fragment: a link that differs from the page's address only by its #fragment just scrolls,
              so without JavaScript this must be a real GET of the page to show new replies. */}
          <a href={`/thread/${token}`} className="text-sm font-semibold text-brand-700 underline" data-testid="check-replies">
            {t("refresh")}
          </a>
        </p>
        {active ? <ThreadLive token={token} updatedLabel={t("updated")} /> : null}
      </FinderCard>

      <FinderCard labelledBy="thread-reply">
        <h2 id="thread-reply" className="text-lg font-bold text-ink">
          {t("replyLabel")}
        </h2>
        {active ? (
          <MessageForm
            action={finderReplyAction}
            formLabel={t("replyLabel")}
            hidden={{ token }}
            submitLabel={t("send")}
            pendingLabel={t("sending")}
            fields={[{ name: "message", kind: "textarea", label: t("replyLabel"), maxLength: 2000, required: true }]}
          />
        ) : (
          <p className="text-ink">{thread.status === "CLOSED" ? t("closed") : t("blocked")}</p>
        )}
      </FinderCard>

      {active ? (
        <FinderCard labelledBy="thread-location">
          <h2 id="thread-location" className="text-lg font-bold text-ink">
            {t("locationHeading")}
          </h2>
          <p className="text-sm text-muted">{t("locationIntro")}</p>
          <ShareLocation
            threadToken={token}
            texts={{
              button: t("locationButton"),
              again: t("locationAgain"),
              pending: t("locationPending"),
              sent: t("locationSent"),
              denied: t("locationDenied"),
              unavailable: t("locationUnavailable"),
              failed: t("locationFailed"),
              needsScript: t("locationNeedsScript"),
            }}
          />
        </FinderCard>
      ) : null}

      {active ? (
        <FinderCard labelledBy="thread-optin">
          <h2 id="thread-optin" className="text-lg font-bold text-ink">
            {t("optInHeading")}
          </h2>
          {thread.emailOnReply ? (
            <p className="text-ink" data-testid="optin-state">
              {search.optin === "1" ? t("optInDone") : t("optInOn")}
            </p>
          ) : (
            <MessageForm
              action={finderEmailOptInAction}
              formLabel={t("optInHeading")}
              hidden={{ token }}
              submitLabel={t("optInSubmit")}
              pendingLabel={t("sending")}
              fields={[{ name: "finderEmail", kind: "email", label: t("optInLabel"), hint: t("optInHint"), maxLength: 254, autoComplete: "email", required: true }]}
            />
          )}
        </FinderCard>
      ) : null}

      <SafetyAdvice heading={finder("safetyHeading")} points={[finder("safetyPublicPlace"), finder("safetyNoPayment"), finder("safetyStayHere")]} />
    </>
  );
}

/**
 * A location the finder shared, inside its message: the place, how precise it is, and links that need no
 * JavaScript (OpenStreetMap, and a geo: link the phone's maps app opens). No map is loaded on this page.
 */
async function SharedPlace({ location, when, light }: { location: MessageLocation; when: string; light: boolean }) {
  const t = await getTranslations("Thread");
  const link = `inline-flex min-h-10 items-center font-semibold underline ${light ? "text-white" : "text-brand-700"}`;
  return (
    <div className="mt-1 flex flex-col gap-1" data-testid="shared-location">
      <p className="font-semibold">{t("locationMessage")}</p>
      <p className="break-words">
        {formatPlace(location.latitude, location.longitude)}
        {location.accuracy !== null ? ` · ${t("locationAccuracy", { metres: Math.round(location.accuracy) })}` : ""}
      </p>
      <p className="flex flex-wrap gap-x-4">
        <a href={openStreetMapUrl(location.latitude, location.longitude)} className={link} target="_blank" rel="noopener noreferrer">
          {t("locationOpenMap")}
          <span className="sr-only">
            {" "}
            ({when}) {t("opensNewTab")}
          </span>
        </a>
        <a href={geoUri(location.latitude, location.longitude)} className={link}>
          {t("locationOpenApp")}
          <span className="sr-only"> ({when})</span>
        </a>
      </p>
    </div>
  );
}

/**
 * The tag's reward as the finder sees it: while it is offered, the one-time handover code to give the owner
 * with the item (the owner's confirmation with it marks a verified handover); afterwards, where it stands.
 */
async function RewardCard({ reward }: { reward: FinderReward }) {
  const t = await getTranslations("Thread");
  const locale = await getLocale();
  const amount = formatMoney(reward.amount ?? 0, reward.currency ?? "USD", locale);
  const state = {
    ACTIVE: t("rewardOffered", { amount }),
    RETURNED: reward.verifiedHandover ? t("rewardReturnedVerified", { amount }) : t("rewardReturned", { amount }),
    PAID: t("rewardPaid", { amount }),
    DISPUTED: t("rewardDisputed"),
  }[reward.status ?? "ACTIVE"];
  // A conversation the return did not name only learns the item is home: never the payment or the certificate.
  const shown = reward.outcome === "ITEM_BACK" ? t("rewardItemBack") : state;
  return (
    <FinderCard labelledBy="thread-reward" className="border-reward-800 bg-reward-50">
      <h2 id="thread-reward" className="text-lg font-bold text-reward-800">
        {t("rewardHeading")}: {amount}
      </h2>
      <p className="text-ink" data-testid="finder-reward-state" data-status={reward.status} data-outcome={reward.outcome}>
        {shown}
      </p>
      {reward.description ? (
        <div>
          <h3 className="text-sm font-semibold text-muted">{t("rewardNote")}</h3>
          <p className="mt-1 whitespace-pre-line break-words text-ink">{reward.description}</p>
        </div>
      ) : null}
      {reward.handoverCode ? (
        <div className="flex flex-col gap-2 rounded-lg border-2 border-reward-800 bg-white p-3">
          <p className="text-sm font-semibold text-ink">{t("handoverCodeLabel")}</p>
          <p className="font-mono text-4xl font-bold tracking-[0.3em] text-ink">
            {/* Read digit by digit, not as one large number. */}
            <span aria-hidden="true" data-testid="handover-code">
              {reward.handoverCode}
            </span>
            <span className="sr-only">{reward.handoverCode.split("").join(" ")}</span>
          </p>
          <p className="text-sm text-ink">{t("handoverAdvice")}</p>
          <p className="text-sm font-semibold text-danger-700">{t("handoverWarning")}</p>
        </div>
      ) : null}
      {reward.certificateUrl ? (
        <p>
          <a href={reward.certificateUrl} className="font-semibold text-brand-700 underline">
            {t("certificateLink")}
          </a>
        </p>
      ) : null}
    </FinderCard>
  );
}
