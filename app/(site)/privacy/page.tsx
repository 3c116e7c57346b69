import type { Metadata } from "next";
import Link from "next/link";
import { SERVICE_NAME } from "@/components/site-links";
import { retentionSettings, type RetentionSettings } from "@/lib/services/retention";

export const metadata: Metadata = {
  title: "Privacy",
  description: `What ${SERVICE_NAME} stores about tag owners and about the people who find their things, why, for how long, and how to get it or have it deleted.`,
  openGraph: { title: `Privacy at ${SERVICE_NAME}`, type: "website" },
};

type Section = { id: string; title: string; intro?: string; points: readonly string[] };

// The retention periods are settings (RETENTION_*), read when the page is served, so it states the ones in force.
export const dynamic = "force-dynamic";

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

/**
 * What the service keeps, written from the schema rather than from a template: each point names a thing
 * the database actually holds (db/schema/*). Keep it true when a table or column changes. The periods come
 * from the retention run's settings (lib/services/retention, docs/operations.md#retention).
 */
function sectionsFor(keep: RetentionSettings): readonly Section[] {
  const traces = plural(keep.finderTracesDays, "day");
  return [
    {
      id: "owners",
      title: "What we store about you as a tag owner",
      points: [
        "Your account: e-mail address, first and last name, an optional phone number, your plan and your time zone. Your password is kept only as a memory-hard hash (scrypt); we cannot read it.",
        `Sign-in records: for each session, the browser's description and a shortened IP address (the last part removed), so you can see and end your sessions; a session that ended is deleted ${plural(keep.operationalDays, "day")} later. API keys and two-factor backup codes are stored as hashes only.`,
        "Your tags and what you write on their pages: item names, descriptions, the lost-mode message, pet, vehicle, device or travel details, and the contact options you switch on.",
        "Photos you upload. We re-encode every photo and strip its metadata, including any GPS position the camera wrote into it.",
        "Your emergency profile, if you fill one in (blood type, allergies, medication, conditions, emergency contacts). It is shown to whoever opens the emergency page of one of your tags; every opening is logged and you are told about it.",
        "Insurance details you add to a tag, rewards you offer, and the certificates of returns.",
        "Notifications we sent you, your notification preferences and, if you allow browser notifications, the push address your browser gives us.",
        "Orders, invoices and subscriptions. Card details go to our payment provider and never reach us; we keep the provider's customer and payment references.",
      ],
    },
    {
      id: "finders",
      title: "What a finder's visit leaves behind",
      intro: "Someone who scans a tag does not need an account, and we keep as little about them as the service needs to work and to stop abuse.",
      points: [
        `Each scan: the time, the tag, the city and country our hosting provider derives from the connection, a rough position when one is available, and the kind of browser (for example "iPhone Safari"), never the full browser string. After ${plural(keep.scansMonths, "month")} the scan itself is deleted: only a count of the tag's scans per day remains.`,
        `The finder's IP address is never stored. We keep a keyed hash of it, which lets us notice repeated or abusive scans without knowing the address, and erase it after ${traces}.`,
        `A precise position only when the finder chooses to share it with the owner, after being asked. It is erased after ${traces}, wherever it was kept (the scan, the conversation, the owner's notification); the city stays.`,
        `Messages the finder sends, and the optional name they give. An e-mail address, if they leave one, is used only to tell them of the owner's reply: it is never shown to the owner. ${plural(keep.closedMessagesMonths, "month")} after a conversation was closed, its messages and that e-mail address are deleted.`,
        "The private link of a conversation is stored only as a hash; whoever holds the link can read and answer the conversation, so finders should keep it to themselves.",
      ],
    },
    {
      id: "shown",
      title: "What a tag's public page shows",
      points: [
        "Only what the owner chose: a private profile shows the tag's status and a way to send a message, not the item, the owner's name or the photos.",
        "Never the owner's e-mail address, phone number or home address, unless the owner switched on a contact option that shows one.",
        "Messages go through the service, so neither side learns the other's address by writing.",
      ],
    },
    {
      id: "everyone",
      title: "Everyone else who writes to us",
      points: [
        `Messages sent with the contact form: your name, e-mail address, subject and message, and a keyed hash of your IP address to limit abuse, erased after ${traces}.`,
        "Newsletter: your e-mail address and when you confirmed it. We only write to addresses that confirmed by the link we sent, and every newsletter has a one-click unsubscribe link.",
      ],
    },
    {
      id: "cookies",
      title: "Cookies and browser storage",
      points: [
        "A sign-in cookie, only when you sign in. It is httpOnly and tied to a session you can end at any time.",
        "A time-zone cookie so dates are shown in your local time, and your shop cart in your browser's local storage. Neither leaves your device except the time zone, which only formats dates.",
        "No advertising or third-party tracking cookies.",
      ],
    },
    {
      id: "keeping",
      title: "How long we keep it, and your choices",
      points: [
        `Every day we erase or delete what is past its time: finders' IP-address hashes and shared positions after ${traces}; scans after ${plural(keep.scansMonths, "month")} (your tag keeps its total and a count per day); the messages of conversations closed ${plural(keep.closedMessagesMonths, "month")} ago; notifications you have read after ${plural(keep.readNotificationsMonths, "month")}; ended sign-in sessions, used links and our technical delivery records after ${plural(keep.operationalDays, "day")}; our payment provider's processed notices after ${plural(keep.paymentEventsDays, "day")}. Our backups hold the same data until they expire in turn.`,
        "Photos and your tags' pages stay while the tag is yours. Releasing a tag deletes its profile, photos, scans and conversations; transferring it gives the new owner a clean start without your details or earlier scans.",
        "You can download everything your account holds, as JSON, from your account page (or GET /api/v1/auth/me/export): do so before a closed conversation's messages reach their time if you want to keep them.",
        "Deleting your account removes it and everything it owns at once, in one step.",
        "Administrators see only what they need to run the service and to act on abuse reports, and every change they make is recorded in an audit log.",
      ],
    },
  ];
}

export default function PrivacyPage() {
  const sections = sectionsFor(retentionSettings());
  return (
    <div className="container-page py-8 sm:py-12">
      <article className="mx-auto max-w-3xl" aria-labelledby="privacy-title">
        <h1 id="privacy-title" className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">
          Privacy
        </h1>
        <p className="mt-4 text-lg text-muted">
          A tag should help an honest finder bring your things back without telling strangers who you are or where you live. This page
          says plainly what {SERVICE_NAME} stores about owners and about finders, and what you can do about it.
        </p>
        <nav aria-label="On this page" className="mt-6 rounded-xl border border-line bg-white p-4">
          <h2 className="text-sm font-semibold text-ink">On this page</h2>
          <ul className="mt-2 space-y-1">
            {sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className="text-brand-800 underline-offset-4 hover:underline">
                  {section.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {sections.map((section) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`} className="mt-10 scroll-mt-4">
            <h2 id={`${section.id}-heading`} className="text-2xl font-semibold text-ink">
              {section.title}
            </h2>
            {section.intro ? <p className="mt-3 text-muted">{section.intro}</p> : null}
            <ul className="mt-4 list-disc space-y-3 pl-5 text-ink">
              {section.points.map((point) => (
                <li key={point}>{point}</li>
              ))}
            </ul>
          </section>
        ))}
        <section aria-labelledby="questions-heading" className="mt-10">
          <h2 id="questions-heading" className="text-2xl font-semibold text-ink">
            Questions
          </h2>
          <p className="mt-3 text-ink">
            Write to us through the <Link href="/contact" className="text-brand-800 underline underline-offset-4">contact page</Link>; we
            answer within 24 hours.
          </p>
        </section>
      </article>
    </div>
  );
}
