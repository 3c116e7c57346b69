import { getTranslations } from "next-intl/server";
import type { PublicScanView } from "@/lib/services/scans";
import { FinderCard } from "./panels";

type Relay = NonNullable<PublicScanView["relay"]>;

/**
 * The dial string: the relay's number, two pauses (",", about 2 s each on both iOS and Android; ";" would
 * wait for a tap and is a parameter separator in RFC 3966), then the tag's PIN, which the relay's greeting
 * gathers (docs/relay.md).
 */
export function relayTelHref(relay: Relay): string {
  return `tel:${relay.number},,${relay.pin}`;
}

/**
 * A text to the relay that starts with the PIN and a space. `?&body=` is the one form both iOS (which reads
 * `&body=`) and Android (which reads `?body=`) fill in.
 */
export function relaySmsHref(relay: Relay): string {
  return `sms:${relay.number}?&body=${encodeURIComponent(`${relay.pin} `)}`;
}

/**
 * "Call or text the owner" on the finder page, only while the tag's relay is on (the public view's
 * `relay`): the relay's number and the tag's PIN, never the owner's number, with the two links and the
 * same instructions in words for a phone that does not follow them.
 */
export async function FinderRelayCard({ relay }: { relay: Relay }) {
  const t = await getTranslations("Finder");
  return (
    <FinderCard labelledBy="finder-relay">
      <h2 id="finder-relay" className="text-xl font-bold text-ink">
        {t("relayHeading")}
      </h2>
      <p className="text-muted">{t("relayIntro")}</p>
      <div className="flex flex-col gap-3 sm:flex-row" data-testid="finder-relay">
        <a href={relayTelHref(relay)} className="flex min-h-12 flex-1 items-center justify-center rounded-xl bg-brand-700 px-4 py-3 text-center text-lg font-bold text-white hover:bg-brand-800" data-testid="relay-call">
          {t("relayCall")}
        </a>
        <a
          href={relaySmsHref(relay)}
          className="flex min-h-12 flex-1 items-center justify-center rounded-xl border-2 border-brand-700 bg-white px-4 py-3 text-center text-lg font-bold text-brand-800 hover:bg-brand-50"
          data-testid="relay-text"
        >
          {t("relayText")}
        </a>
      </div>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-ink">
        <dt className="font-semibold">{t("relayNumberLabel")}</dt>
        <dd className="font-mono" data-testid="relay-number">
          {relay.number}
        </dd>
        <dt className="font-semibold">{t("relayPinLabel")}</dt>
        <dd className="font-mono text-lg font-bold tracking-widest" data-testid="relay-pin">
          {relay.pin}
        </dd>
      </dl>
      <ul className="flex list-disc flex-col gap-1.5 pl-5 text-sm text-ink">
        <li>{t("relayHowToCall", { number: relay.number, pin: relay.pin })}</li>
        <li>{t("relayHowToText", { number: relay.number, pin: relay.pin })}</li>
      </ul>
    </FinderCard>
  );
}
