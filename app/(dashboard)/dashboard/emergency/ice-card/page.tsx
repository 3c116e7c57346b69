import type { Metadata } from "next";
import Link from "next/link";
import { BackLink } from "@/components/dashboard/back-link";
import { PrintButton } from "@/components/dashboard/print-button";
import { inputClass } from "@/components/forms/field";
import { tagStatusLabels } from "@/components/tags/labels";
import { requireUserContext } from "@/lib/http/page-context";
import { getMe } from "@/lib/services/auth";
import { emergencyCardQr, emergencyCardTags, getEmergencyProfile, isShownToResponders, type EmergencyProfile } from "@/lib/services/emergency";
import "./ice-card.css";

export const metadata: Metadata = { title: "ICE card" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const PATH = "/dashboard/emergency/ice-card";

/** What the owner may put on the card, in the card's order. */
const FACTS = [
  { key: "bloodType", label: "Blood type" },
  { key: "allergies", label: "Allergies" },
  { key: "conditions", label: "Conditions" },
  { key: "medications", label: "Medications" },
  { key: "organDonor", label: "Organ donor" },
  { key: "contact", label: "First contact" },
] as const;
type FactKey = (typeof FACTS)[number]["key"];
const DEFAULT_FACTS: readonly FactKey[] = ["bloodType", "allergies", "conditions", "contact"];

function many(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The card's lines for the chosen facts; a fact the profile does not state is left off. */
function factLines(profile: EmergencyProfile, chosen: ReadonlySet<FactKey>): { label: string; text: string }[] {
  const lines: { label: string; text: string }[] = [];
  const contact = profile.emergencyContacts[0];
  for (const { key, label } of FACTS) {
    if (!chosen.has(key)) continue;
    let text: string | null = null;
    if (key === "bloodType") text = profile.bloodType;
    else if (key === "organDonor") text = profile.organDonor === null ? null : profile.organDonor ? "Yes" : "No";
    else if (key === "contact") text = contact ? `${contact.name} (${contact.relationship}) ${contact.phone}` : null;
    else text = profile[key].length ? profile[key].join(", ") : null;
    if (text) lines.push({ label, text });
  }
  return lines;
}

/**
 * A wallet-sized ICE ("in case of emergency") card: the owner's name, the medical facts they tick, and
 * the QR code of one of their tags' emergency page. The choices travel in the query string, so the
 * card is a plain GET form and prints from the browser.
 */
export default async function IceCardPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireUserContext(PATH);
  const params = await searchParams;
  const [me, profile, tags] = await Promise.all([getMe(ctx), getEmergencyProfile(ctx), emergencyCardTags(ctx)]);

  const submitted = one(params.chosen) === "1";
  const chosen = new Set<FactKey>(submitted ? (many(params.show).filter((key) => FACTS.some((fact) => fact.key === key)) as FactKey[]) : DEFAULT_FACTS);
  const tag = tags.find((candidate) => candidate.id === one(params.tag)) ?? tags[0];
  const qr = tag ? await emergencyCardQr(ctx, tag.id) : null;
  const lines = factLines(profile, chosen);
  const name = `${me.firstName} ${me.lastName}`;

  return (
    <div className="flex flex-col gap-6">
      <div className="no-print flex flex-col gap-4">
        <BackLink href="/dashboard/emergency">Emergency information</BackLink>
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">ICE card</h1>
          <p className="mt-2 max-w-2xl text-muted">
            A card for your wallet, the size of a bank card. Choose what it says; the QR code opens your emergency information through one of
            your tags, and you are told whenever someone does.
          </p>
        </div>
        {!isShownToResponders(profile) ? (
          <p className="rounded-lg border-l-4 border-brand-700 bg-brand-50 px-4 py-3 text-sm text-brand-900" role="status">
            Your emergency information is empty, so the QR code would open nothing.{" "}
            <Link href="/dashboard/emergency" className="font-semibold underline">
              Fill it in first
            </Link>
            .
          </p>
        ) : null}
      </div>

      <div className="ice-card-frame flex justify-center rounded-xl border border-line bg-white p-4 shadow-sm sm:p-8">
        <section aria-label={`ICE card of ${name}`} className="ice-card print-sheet flex flex-col overflow-hidden rounded-[3mm] border border-slate-400 bg-white text-ink">
          <p className="bg-danger-700 px-[3mm] py-[1mm] text-[7pt] font-bold tracking-wide text-white uppercase">ICE · In case of emergency</p>
          <div className="flex min-h-0 flex-1 gap-[2.5mm] overflow-hidden p-[2.5mm] pb-[1mm]">
            <div className="flex min-w-0 flex-1 flex-col gap-[1mm]">
              <p className="truncate text-[10.5pt] leading-tight font-bold" data-testid="ice-name">
                {name}
              </p>
              {lines.length ? (
                <ul className="ice-card-facts flex flex-col gap-[0.6mm] text-[6.8pt] leading-snug" aria-label="On the card">
                  {lines.map((line) => (
                    <li key={line.label}>
                      <span className="font-bold">{line.label}:</span> {line.text}
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-[6.8pt] text-slate-700">Scan the code for my medical information and emergency contacts.</p>
              )}
            </div>
            <div className="flex w-[23mm] shrink-0 flex-col items-center gap-[0.8mm]">
              {qr ? (
                <div
                  role="img"
                  aria-label="QR code of my emergency information"
                  data-testid="ice-qr"
                  className="w-[23mm] [&>svg]:h-auto [&>svg]:w-full"
                  // Our own qrcode output for our own URL: markup we generated, not user input.
                  dangerouslySetInnerHTML={{ __html: qr.svg }}
                />
              ) : (
                <p className="flex h-[23mm] w-[23mm] items-center justify-center border border-dashed border-slate-500 p-[1mm] text-center text-[6pt] text-slate-700">No tag for a QR code yet</p>
              )}
              <p className="text-center text-[5.8pt] leading-tight text-slate-700">Scan for medical details</p>
            </div>
          </div>
          {qr ? (
            // For when no camera is at hand: the same page, typed.
            <p className="shrink-0 px-[2.5mm] pb-[1.5mm] font-mono text-[5.5pt] leading-tight break-all text-slate-700" data-testid="ice-url">
              {qr.url.replace(/^https?:\/\//, "")}
            </p>
          ) : null}
        </section>
      </div>

      <form method="get" action={PATH} aria-label="Card contents" className="no-print flex max-w-2xl flex-col gap-5 rounded-xl border border-line bg-white p-5 shadow-sm sm:p-6">
        <input type="hidden" name="chosen" value="1" />
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 text-sm font-semibold text-ink">What the card shows besides your name</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {FACTS.map((fact) => (
              <label key={fact.key} className="flex min-h-11 items-center gap-3 text-ink">
                <input type="checkbox" name="show" value={fact.key} defaultChecked={chosen.has(fact.key)} className="h-6 w-6 shrink-0 accent-brand-700" />
                {fact.label}
              </label>
            ))}
          </div>
        </fieldset>
        {tags.length > 1 ? (
          <div className="flex flex-col gap-1.5">
            <label htmlFor="ice-tag" className="text-sm font-semibold text-ink">
              QR code through the tag
            </label>
            <select id="ice-tag" name="tag" defaultValue={tag?.id} className={inputClass}>
              {tags.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.itemName ?? "Unnamed tag"} ({candidate.code}, {tagStatusLabels[candidate.status]})
                </option>
              ))}
            </select>
          </div>
        ) : tag ? (
          <input type="hidden" name="tag" value={tag.id} />
        ) : (
          <p className="text-sm text-muted">
            The QR code needs one of your tags.{" "}
            <Link href="/dashboard/tags/activate" className="font-semibold text-brand-700 underline">
              Activate a tag
            </Link>
            .
          </p>
        )}
        <div className="flex flex-wrap gap-3">
          <button type="submit" className="btn-secondary">
            Update the card
          </button>
          <PrintButton label="Print the card" />
        </div>
      </form>
    </div>
  );
}
