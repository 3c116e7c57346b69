import type { Metadata } from "next";
import { formatMoney } from "@/lib/i18n/money";
import Link from "next/link";
import { BackLink } from "@/components/dashboard/back-link";
import { FormAlert } from "@/components/forms/form-alert";
import { getLostPoster, type LostPoster } from "@/lib/services/finder";
import { PrintButton } from "@/components/dashboard/print-button";
import { FieldsForm } from "@/components/tags/fields-form";
import { setLastSeenAction } from "./actions";
import { loadOwnedTag } from "../load";
import "./poster.css";

export const metadata: Metadata = { title: "Lost poster" };

type Params = Promise<{ id: string }>;

/** "Dog · Beagle · Brown": the typed profile's public part in a line. */
function detailsLine(details: LostPoster["details"]): string | null {
  if (!details) return null;
  const parts =
    details.tagType === "PET"
      ? [details.species, details.breed, details.color]
      : details.tagType === "VEHICLE"
        ? [[details.make, details.model].join(" "), details.year ? String(details.year) : null, details.color]
        : details.tagType === "DEVICE"
          ? [details.deviceType, [details.brand, details.model].filter(Boolean).join(" ") || null, details.color]
          : [details.luggageType, details.brand, details.color];
  return parts.filter(Boolean).join(" · ") || null;
}

const shortAddress = (url: string) => url.replace(/^https?:\/\//, "");

/**
 * A one-page poster for a LOST or STOLEN tag, to print from the browser: the item's photo and
 * description, the owner's message, any reward, and the tag's QR code with the printed code for whoever
 * has no camera. The print stylesheet leaves only the sheet, sized for A4 and US Letter alike.
 */
export default async function LostPosterPage({ params }: { params: Params }) {
  const { id } = await params;
  const { ctx, tag } = await loadOwnedTag(id, `/dashboard/tags/${id}/poster`);
  const poster = await getLostPoster(ctx, tag.id);
  const name = poster.itemName ?? "Unnamed item";
  const stolen = poster.status === "STOLEN";
  const petName = poster.details?.tagType === "PET" ? poster.details.petName : null;
  const line = detailsLine(poster.details);

  return (
    <div className="flex flex-col gap-6">
      <div className="no-print flex flex-col gap-4">
        <BackLink href={`/dashboard/tags/${tag.id}`}>Back to {tag.itemName ?? "the tag"}</BackLink>
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">Lost poster</h1>
          <p className="mt-2 max-w-2xl text-muted">
            One page for A4 or Letter paper: put it up where {tag.itemName ?? "the item"} went missing. Whoever scans the code reaches you without seeing your e-mail address or
            phone number.
          </p>
        </div>
        {poster.printable ? (
          <>
            {poster.visibility === "PRIVATE" ? (
              <FormAlert tone="info" title="Your profile is private.">
                People who scan the code see only a way to contact you; the poster still shows the item, since you are putting it up.
              </FormAlert>
            ) : null}
            <FieldsForm
              action={setLastSeenAction}
              formLabel="Last seen"
              hidden={{ tagId: tag.id }}
              columns={2}
              intro={<p className="text-sm text-muted">Where and when you last saw it, in your own words: the poster prints them as written.</p>}
              fields={[
                { name: "lastSeenPlace", label: "Last seen where", optional: true, maxLength: 120, defaultValue: poster.lastSeenPlace ?? "", hint: "Like “Riverside Park, near the east gate”." },
                { name: "lastSeenWhen", label: "Last seen when", optional: true, maxLength: 80, defaultValue: poster.lastSeenWhen ?? "", hint: "Like “Saturday 14 June, around 6 pm”." },
              ]}
              submitLabel="Save"
              pendingLabel="Saving…"
            />
            <div>
              <PrintButton />
            </div>
          </>
        ) : (
          <FormAlert tone="info" title="A poster is for a lost or stolen item.">
            <p>
              This tag is not marked lost or stolen. <Link href={`/dashboard/tags/${tag.id}#status-heading`} className="font-semibold underline">Change its status</Link> first, then
              come back to print the poster.
            </p>
          </FormAlert>
        )}
      </div>

      {poster.printable ? (
        <article aria-label={`Poster for ${name}`} className="lost-poster-sheet print-sheet mx-auto flex w-full max-w-2xl flex-col gap-4 rounded-xl border-4 border-danger-700 bg-white p-6 text-ink sm:p-8">
          {/* The word in red ink on white, inside a red frame: it survives a printer or browser that leaves out
              background colours (white letters on a coloured band would vanish), at 6.5:1 contrast. */}
          <header className="lost-poster-banner rounded-lg border-4 border-danger-700 bg-white px-4 py-3 text-center text-ink">
            <p className="text-5xl font-black tracking-[0.2em] text-danger-700 uppercase sm:text-6xl" data-testid="poster-word">
              {stolen ? "Stolen" : "Lost"}
            </p>
            <h2 className="lost-poster-name mt-1 text-2xl font-bold break-words sm:text-3xl">{petName && petName !== name ? `${name} (${petName})` : name}</h2>
          </header>

          {poster.photoUrl ? (
            // eslint-disable-next-line @next/next/no-img-element -- served by our own route, already re-encoded and small
            <img src={poster.photoUrl} alt={`Photo of ${name}`} className="lost-poster-photo mx-auto max-h-80 w-full rounded-lg object-contain" />
          ) : null}

          <div className="flex flex-col gap-2 text-center">
            {line ? <p className="text-lg font-semibold">{line}</p> : null}
            {poster.description ? <p className="lost-poster-description whitespace-pre-line">{poster.description}</p> : null}
            {poster.lastSeenPlace || poster.lastSeenWhen ? (
              <p className="text-xl font-bold" data-testid="poster-last-seen">
                Last seen: {[poster.lastSeenPlace, poster.lastSeenWhen].filter(Boolean).join(", ")}
              </p>
            ) : null}
            {poster.lostMessage ? <p className="lost-poster-message text-lg font-semibold whitespace-pre-line">“{poster.lostMessage}”</p> : null}
            {poster.reward !== null ? <p className="text-2xl font-bold">Reward: {formatMoney(poster.reward.amount, poster.reward.currency)}</p> : null}
            {stolen ? <p className="text-sm font-semibold">Please do not confront anyone who has it: scan the code to tell the owner, or call the police.</p> : null}
          </div>

          <div className="lost-poster-contact flex flex-col items-center gap-4 rounded-lg border-2 border-slate-300 p-4 sm:flex-row sm:items-center">
            <div
              role="img"
              aria-label={`QR code for the tag ${poster.code}`}
              data-testid="poster-qr"
              className="lost-poster-qr w-44 shrink-0 [&>svg]:h-auto [&>svg]:w-full"
              // Our own qrcode output for our own URL: markup we generated, not user input.
              dangerouslySetInnerHTML={{ __html: poster.qrSvg }}
            />
            <div className="flex flex-col gap-2 text-center sm:text-left">
              <p className="text-2xl font-bold">Scan to contact the owner anonymously</p>
              <p>
                No camera? Go to <span className="font-semibold break-all">{shortAddress(poster.foundUrl)}</span> and enter the code
              </p>
              <p className="font-mono text-3xl font-bold tracking-widest" data-testid="poster-code">
                {poster.code}
              </p>
            </div>
          </div>
        </article>
      ) : null}
    </div>
  );
}
