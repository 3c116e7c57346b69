import type { Metadata } from "next";
import QRCode from "qrcode";
import { DateTime } from "@/components/dashboard/date-time";
import { formDate } from "@/components/dashboard/dates";
import { PrintButton } from "@/components/dashboard/print-button";
import { browserTimeZone } from "@/lib/http/viewer-time-zone";
import { FALLBACK_TIME_ZONE } from "@/lib/i18n/time-zones";
import { formatMoney } from "@/lib/i18n/money";
import type { Certificate } from "@/lib/services/rewards";
import { loadCertificate } from "./load";
import "./certificate.css";

type Params = Promise<{ certificateId: string }>;

/**
 * Anyone may open a certificate, so there is no saved zone to use: the visitor's browser zone when its
 * cookie is there (set on dashboard pages), else UTC; the time says which.
 */
async function certificateTimeZone(): Promise<string> {
  return (await browserTimeZone()) ?? FALLBACK_TIME_ZONE;
}

// What was verified, and no more: a code proves that the person holding one finder's conversation handed
// the item over; the owner's word names a finder (or none) without proof.
const HANDOVER_HEADLINE: Record<Certificate["confirmation"], string> = {
  HANDOVER_CODE: "✓ Verified handover",
  OWNER_CHOSE_FINDER: "Confirmed by the owner",
  OWNER: "Confirmed by the owner",
};
const HANDOVER_DETAIL: Record<Certificate["confirmation"], string> = {
  HANDOVER_CODE: "The owner confirmed the return with the one-time code shown only in the conversation of the finder who returned it.",
  OWNER_CHOSE_FINDER: "The owner confirmed the return and named the finder's conversation, without a handover code.",
  OWNER: "The owner confirmed the return without a handover code and without naming a finder.",
};

function summary(certificate: Certificate, timeZone: string): string {
  const item = certificate.itemName ?? "An item";
  const reward = formatMoney(certificate.rewardAmount, certificate.rewardCurrency);
  return `${item} was returned to its owner on ${formDate(certificate.returnedAt, timeZone, { long: true })}${certificate.verifiedHandover ? ", with a verified handover" : ""}. Reward: ${reward}.`;
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const certificate = await loadCertificate((await params).certificateId);
  const title = certificate.itemName ? `Certificate of return: ${certificate.itemName}` : "Certificate of return";
  const description = summary(certificate, await certificateTimeZone());
  return {
    title,
    description,
    // Shared on purpose by link, not meant to be found by searching.
    robots: { index: false, follow: false },
    alternates: { canonical: certificate.verifyUrl },
    openGraph: { type: "article", title, description, url: certificate.verifyUrl, siteName: "Tag Service" },
    twitter: { card: "summary", title, description },
  };
}

/**
 * The public certificate of a returned item (GET /rewards/certificates/:certificateId's object), printable.
 * Its QR code is its own address, so a printed copy can be checked against this page.
 */
export default async function CertificatePage({ params }: { params: Params }) {
  const certificate = await loadCertificate((await params).certificateId);
  const timeZone = await certificateTimeZone();
  const qrSvg = await QRCode.toString(certificate.verifyUrl, { type: "svg", errorCorrectionLevel: "M", margin: 1 });
  const paid = certificate.rewardStatus === "PAID";

  return (
    <div className="container-page flex flex-1 flex-col gap-6 py-8 sm:py-12">
      <div className="no-print flex flex-wrap items-center justify-between gap-3">
        <p className="text-muted">A certificate anyone with this link can check.</p>
        <PrintButton label="Print the certificate" />
      </div>

      <article
        aria-labelledby="certificate-heading"
        className="return-certificate print-sheet mx-auto flex w-full max-w-2xl flex-col gap-6 rounded-2xl border-4 border-double border-brand-700 bg-white p-6 text-center text-ink shadow-sm sm:p-10"
      >
        <header className="flex flex-col gap-2">
          <p className="text-sm font-semibold uppercase tracking-widest text-brand-700">Tag Service</p>
          <h1 id="certificate-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
            Certificate of return
          </h1>
        </header>

        <p className="text-lg">
          <span className="font-semibold break-words" data-testid="certificate-item">
            {certificate.itemName ?? "An item protected by a Tag Service tag"}
          </span>{" "}
          was found and returned to its owner on <DateTime iso={certificate.returnedAt} timeZone={timeZone} dateOnly long />.
        </p>

        <dl className="grid gap-4 text-left sm:grid-cols-2">
          <div className="rounded-lg bg-canvas p-4">
            <dt className="text-sm font-semibold text-muted">Reward</dt>
            <dd className="mt-1 text-xl font-bold" data-testid="certificate-reward">
              {formatMoney(certificate.rewardAmount, certificate.rewardCurrency)}
            </dd>
            <dd className="text-sm text-muted">{paid ? "Paid by the owner" : "To be paid by the owner"}</dd>
          </div>
          <div className="rounded-lg bg-canvas p-4">
            <dt className="text-sm font-semibold text-muted">Handover</dt>
            <dd className="mt-1 text-xl font-bold" data-testid="certificate-handover" data-verified={certificate.verifiedHandover} data-confirmation={certificate.confirmation}>
              {HANDOVER_HEADLINE[certificate.confirmation]}
            </dd>
            <dd className="text-sm text-muted">{HANDOVER_DETAIL[certificate.confirmation]}</dd>
          </div>
        </dl>

        <footer className="flex flex-col items-center gap-4 border-t border-line pt-6 sm:flex-row sm:text-left">
          <div
            role="img"
            aria-label="QR code of this certificate's address"
            className="h-28 w-28 shrink-0 [&>svg]:h-full [&>svg]:w-full"
            // Our own qrcode output for our own URL: markup we generated, not user input.
            dangerouslySetInnerHTML={{ __html: qrSvg }}
          />
          <dl className="flex min-w-0 flex-col gap-1 text-sm">
            <div>
              <dt className="inline font-semibold">Certificate </dt>
              <dd className="inline font-mono break-all" data-testid="certificate-id">
                {certificate.certificateId}
              </dd>
            </div>
            <div>
              <dt className="inline font-semibold">Returned </dt>
              <dd className="inline">
                <DateTime iso={certificate.returnedAt} timeZone={timeZone} long />
              </dd>
            </div>
            <div>
              <dt className="inline font-semibold">Check it at </dt>
              <dd className="inline break-all">{certificate.verifyUrl}</dd>
            </div>
          </dl>
        </footer>
      </article>
    </div>
  );
}
