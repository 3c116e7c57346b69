import { inputClass } from "@/components/forms/field";
import { formatMoney } from "@/lib/i18n/money";
import type { FormState } from "@/lib/forms/form-state";
import { ownerWordsOf } from "@/lib/services/finder";
import type { PublicDetails, PublicScanView } from "@/lib/services/scans";
import { attribute, html, type Html } from "./html";
import type { FinderWords } from "./messages";

/**
 * The finder's page for a tag (GET /t/:encryptedId), as markup: what the React pages of the finder's
 * area show, built as strings so the page can be cached per tag and language and served without a
 * framework runtime (docs/finder-page.md). The dashboard's preview of the page shows the same card
 * (tagCard with `preview`).
 */

type Relay = NonNullable<PublicScanView["relay"]>;

/** A white card, as FinderCard on the React pages. */
function card(labelledBy: string, body: Html, extraClass = ""): Html {
  return html`<section aria-labelledby="${labelledBy}" class="flex flex-col gap-3 rounded-xl border border-line bg-white p-4 ${extraClass}">${body}</section>`;
}

/** A whole-page message (too many scans, not set up, not found). */
export function noticeCard(heading: string, body: Html): Html {
  return card("finder-notice", html`<h1 id="finder-notice" class="text-xl font-bold text-ink">${heading}</h1><div class="flex flex-col gap-3 text-ink">${body}</div>`);
}

function safetyAdvice({ t }: FinderWords): Html {
  const points = [t("safetyPublicPlace"), t("safetyNoPayment"), t("safetyStayHere")];
  return card(
    "finder-safety",
    html`<h2 id="finder-safety" class="text-base font-bold text-amber-950">${t("safetyHeading")}</h2><ul class="flex list-disc flex-col gap-1.5 pl-5 text-sm text-amber-950">${points.map((point) => html`<li>${point}</li>`)}</ul>`,
    "border-amber-300 bg-amber-50",
  );
}

/** The dial string: the relay's number, two pauses, then the tag's PIN, which the relay's greeting gathers (docs/relay.md). */
export function relayTelHref(relay: Relay): string {
  return `tel:${relay.number},,${relay.pin}`;
}

/** A text to the relay that starts with the PIN and a space; `?&body=` is the form both iOS and Android fill in. */
export function relaySmsHref(relay: Relay): string {
  return `sms:${relay.number}?&body=${encodeURIComponent(`${relay.pin} `)}`;
}

/** "Call or text the owner", only while the tag's relay is on: the relay's number and the tag's PIN, never the owner's number. */
export function relayCard({ t }: FinderWords, relay: Relay): Html {
  return card(
    "finder-relay",
    html`<h2 id="finder-relay" class="text-xl font-bold text-ink">${t("relayHeading")}</h2>
<p class="text-muted">${t("relayIntro")}</p>
<div class="flex flex-col gap-3 sm:flex-row" data-testid="finder-relay"><a href="${relayTelHref(relay)}" class="flex min-h-12 flex-1 items-center justify-center rounded-xl bg-brand-700 px-4 py-3 text-center text-lg font-bold text-white hover:bg-brand-800" data-testid="relay-call">${t("relayCall")}</a><a href="${relaySmsHref(relay)}" class="flex min-h-12 flex-1 items-center justify-center rounded-xl border-2 border-brand-700 bg-white px-4 py-3 text-center text-lg font-bold text-brand-800 hover:bg-brand-50" data-testid="relay-text">${t("relayText")}</a></div>
<dl class="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-ink"><dt class="font-semibold">${t("relayNumberLabel")}</dt><dd class="font-mono" data-testid="relay-number">${relay.number}</dd><dt class="font-semibold">${t("relayPinLabel")}</dt><dd class="font-mono text-lg font-bold tracking-widest" data-testid="relay-pin">${relay.pin}</dd></dl>
<ul class="flex list-disc flex-col gap-1.5 pl-5 text-sm text-ink"><li>${t("relayHowToCall", { number: relay.number, pin: relay.pin })}</li><li>${t("relayHowToText", { number: relay.number, pin: relay.pin })}</li></ul>`,
  );
}

/** Which fields of each type identify the item, in the order a finder compares them with what they hold. */
const identifyingFields = {
  PET: ["species", "breed", "color", "size", "distinctiveMarks"],
  VEHICLE: ["make", "model", "year", "color", "licensePlate"],
  DEVICE: ["deviceType", "brand", "model", "color"],
  TRAVEL: ["luggageType", "brand", "color"],
} as const;

/** What identifies the item: exactly the fields the public view carries (it already leaves out the rest). */
function identifyingDetails({ t }: FinderWords, details: PublicDetails, headingTag: "h2" | "h4"): Html | null {
  if (!details) return null;
  const record = details as Record<string, unknown>;
  const rows = identifyingFields[details.tagType]
    .map((field) => ({ field, value: record[field] }))
    .filter((row): row is { field: (typeof identifyingFields)[keyof typeof identifyingFields][number]; value: string | number } => typeof row.value === "string" || typeof row.value === "number");
  const medication = details.tagType === "PET" && details.needsMedication === true;
  if (rows.length === 0 && !medication) return null;
  const heading = headingTag === "h2" ? html`<h2 class="text-sm font-semibold text-muted">${t("identifyingHeading")}</h2>` : html`<h4 class="text-sm font-semibold text-muted">${t("identifyingHeading")}</h4>`;
  return html`<div data-testid="finder-identifying">${heading}${medication ? html`<p class="mt-1 rounded-lg bg-danger-50 px-3 py-2 font-semibold text-danger-700">${t("needsMedication")}</p>` : null}${
    rows.length > 0 ? html`<dl class="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-ink">${rows.map((row) => html`<div class="contents"><dt class="text-muted">${t(`field.${row.field}`)}</dt><dd class="break-words">${String(row.value)}</dd></div>`)}</dl>` : null
  }</div>`;
}

/**
 * The top of the finder's page: the LOST / STOLEN / FOUND banner, the item with its photo and owner, the
 * reward, the owner's note and what identifies the item, in the finder's language. `actions` (message,
 * call, emergency) come right under the item's name, so on a phone they are above the fold. The dashboard
 * shows it as the preview of the page (`preview`: a heading below the page's own, no role="status").
 */
export function tagCard(words: FinderWords, view: PublicScanView, options: { preview?: boolean; actions?: Html | null } = {}): Html {
  const { t, format, locale } = words;
  const preview = options.preview ?? false;
  const name = view.itemName ?? t("unnamedItem");
  const photo = view.photos.find((candidate) => candidate.isPrimary) ?? view.photos[0];
  const ownerNote = ownerWordsOf(view);
  const headingId = preview ? "finder-preview-item" : "finder-item";
  const bannerRole = attribute("role", preview ? null : "status");
  const noteHeading = (text: string) => (preview ? html`<h4 class="text-sm font-semibold text-muted">${text}</h4>` : html`<h2 class="text-sm font-semibold text-muted">${text}</h2>`);
  const itemHeading = preview
    ? html`<h3 id="${headingId}" class="text-2xl font-bold break-words text-ink">${name}</h3>`
    : html`<h1 id="${headingId}" class="text-2xl font-bold break-words text-ink">${name}</h1>`;
  const amount = view.reward === null ? null : view.rewardCurrency ? formatMoney(view.reward, view.rewardCurrency, locale) : format.number(view.reward);

  return html`${view.status === "LOST" ? html`<p${bannerRole} class="rounded-xl bg-danger-700 px-4 py-3 text-center text-lg font-bold text-white">${t("bannerLost")}</p>` : null}${
    view.status === "STOLEN"
      ? html`<div${bannerRole} class="rounded-xl bg-danger-700 px-4 py-3 text-white"><p class="text-center text-lg font-bold">${t("bannerStolen")}</p><p class="mt-1 text-sm">${t("bannerStolenAdvice")}</p></div>`
      : null
  }${view.status === "FOUND" ? html`<p class="rounded-xl border border-green-700 bg-green-50 px-4 py-3 text-green-900">${t("bannerFound")}</p>` : null}${card(
    headingId,
    html`<div class="flex items-start gap-4">${
      photo ? html`<img src="${photo.url}" alt="${view.itemName ? t("photoAlt", { name: view.itemName }) : t("photoAltUnnamed")}" class="h-28 w-28 shrink-0 rounded-lg border border-line object-cover">` : null
    }<div class="flex min-w-0 flex-col gap-1"><p class="text-sm font-semibold uppercase tracking-wide text-brand-700">${t(`tagType.${view.tagType}`)}</p>${itemHeading}${
      view.ownerName ? html`<p class="text-ink">${t("belongsTo", { name: view.ownerName })}</p>` : null
    }${!view.itemName && !view.ownerName ? html`<p class="text-sm text-muted">${t("privateProfile")}</p>` : null}</div></div>${options.actions ?? null}${
      amount !== null
        ? html`<div class="rounded-lg bg-reward-50 px-3 py-2 text-reward-800" data-testid="finder-reward"><p class="text-lg font-bold">${t("reward", { amount })}</p>${view.contactEnabled ? html`<p class="mt-1 text-sm">${t("rewardHowTo")}</p>` : null}</div>`
        : null
    }${ownerNote ? html`<div>${noteHeading(t("ownerNote"))}<p class="mt-1 whitespace-pre-line break-words text-ink">${ownerNote}</p></div>` : null}${identifyingDetails(words, view.details, preview ? "h4" : "h2")}${
      view.description ? html`<p class="whitespace-pre-line break-words text-ink">${view.description}</p>` : null
    }`,
  )}`;
}

/** Message, call (relay on) and emergency: the finder's first actions, right under the item's name. */
function actionButtons({ t }: FinderWords, view: PublicScanView, encryptedId: string): Html | null {
  if (!view.contactEnabled && !view.emergencyAvailable && !view.relay) return null;
  return html`<div class="flex flex-col gap-3">${
    view.contactEnabled
      ? html`<a href="#finder-contact" class="flex min-h-14 flex-col items-center justify-center rounded-xl bg-brand-700 px-4 py-3 text-center text-white hover:bg-brand-800" data-testid="message-owner"><span class="text-lg font-bold">${t("messageOwner")}</span><span class="text-sm">${t("messageOwnerHint")}</span></a>`
      : null
  }${
    view.relay
      ? html`<a href="${relayTelHref(view.relay)}" class="flex min-h-14 flex-col items-center justify-center rounded-xl border-2 border-brand-700 bg-white px-4 py-3 text-center text-brand-800 hover:bg-brand-50" data-testid="relay-call-top"><span class="text-lg font-bold">${t("relayCall")}</span><span class="text-sm">${t("relayCallHint")}</span></a>`
      : null
  }${
    view.emergencyAvailable
      ? html`<a href="/t/${encodeURIComponent(encryptedId)}/emergency" class="flex min-h-14 flex-col items-center justify-center rounded-xl bg-red-800 px-4 py-3 text-center text-white hover:bg-red-900" data-testid="emergency-button"><span class="text-lg font-bold">${t("emergencyButton")}</span><span class="text-sm">${t("emergencyHint")}</span></a>`
      : null
  }</div>`;
}

const errorMark = html`<svg viewBox="0 0 20 20" class="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" focusable="false" fill="currentColor"><path d="M10 1.5a8.5 8.5 0 1 0 0 17 8.5 8.5 0 0 0 0-17zm-.9 4.3h1.8l-.2 6h-1.4zm.9 8.9a1.1 1.1 0 1 1 0-2.2 1.1 1.1 0 0 1 0 2.2z"/></svg>`;

interface ContactField {
  name: "message" | "finderName" | "finderEmail";
  kind: "textarea" | "text" | "email";
  label: string;
  hint?: string;
  optional?: boolean;
  maxLength: number;
  autoComplete?: string;
  required?: boolean;
}

/**
 * The contact form: a plain form posting to this page's own address (the route's POST), with the same
 * fields, limits and service as POST /api/v1/scan/:encryptedId/contact. After a refused post the page
 * comes back with the messages, the values and the first problem focused (autofocus: no script needed).
 */
function contactForm(words: FinderWords, encryptedId: string, state: FormState): Html {
  const { t } = words;
  const fields: ContactField[] = [
    { name: "message", kind: "textarea", label: t("messageLabel"), hint: t("messageHint"), maxLength: 2000, required: true },
    { name: "finderName", kind: "text", label: t("nameLabel"), optional: true, maxLength: 100, autoComplete: "given-name" },
    { name: "finderEmail", kind: "email", label: t("emailLabel"), optional: true, hint: t("emailHint"), maxLength: 254, autoComplete: "email" },
  ];
  const firstInvalid = fields.find((field) => state.fieldErrors?.[field.name]?.length)?.name;
  const alert =
    state.status === "error"
      ? html`<div role="alert" tabindex="-1" data-form-alert="error" class="rounded-lg border-l-4 px-4 py-3 text-sm border-danger-700 bg-danger-50 text-danger-700"${attribute("autofocus", firstInvalid ? null : "")}><p class="font-semibold">${state.message ?? t("failed")}</p></div>`
      : null;
  // No fragment in the action: the browser would carry it to the conversation the post redirects to, and a
  // fragment in the address stops the refused page's autofocus from reaching the first problem.
  return html`<form method="post" action="/t/${encodeURIComponent(encryptedId)}" aria-label="${t("contactHeading")}" class="flex flex-col gap-4" novalidate>${alert}${fields.map((field) => {
    const id = `contact-${field.name}`;
    const errors = state.fieldErrors?.[field.name] ?? [];
    const describedBy = [field.hint ? `${id}-hint` : null, errors.length ? `${id}-error` : null].filter(Boolean).join(" ") || null;
    const value = state.status === "error" ? (state.values?.[field.name] ?? "") : "";
    const common = html`id="${id}" name="${field.name}" maxlength="${field.maxLength}"${attribute("required", field.required ? "" : null)}${attribute("aria-invalid", errors.length ? "true" : null)}${attribute("aria-describedby", describedBy)}${attribute("autofocus", firstInvalid === field.name ? "" : null)} class="${inputClass}"`;
    const control =
      field.kind === "textarea"
        ? html`<textarea rows="4" ${common}>${value}</textarea>`
        : html`<input type="${field.kind}"${attribute("autocomplete", field.autoComplete)}${attribute("inputmode", field.kind === "email" ? "email" : null)} ${common}${attribute("value", value || null)}>`;
    return html`<div class="flex flex-col gap-1.5"><label for="${id}" class="text-sm font-semibold text-ink">${field.label}${field.optional ? html`<span class="font-normal text-muted"> (${t("optional")})</span>` : null}</label>${
      field.hint ? html`<p id="${id}-hint" class="text-sm text-muted">${field.hint}</p>` : null
    }${errors.length ? html`<ul id="${id}-error" class="flex flex-col gap-0.5 text-sm font-medium text-danger-700">${errors.map((message) => html`<li class="flex items-start gap-1.5">${errorMark}<span>${message}</span></li>`)}</ul>` : null}${control}</div>`;
  })}<div><button type="submit" class="btn-primary w-full sm:w-auto">${t("send")}</button></div></form>`;
}

function contactCard(words: FinderWords, view: PublicScanView, encryptedId: string, state: FormState): Html {
  const { t } = words;
  const closedText = view.contactEnabled ? null : view.status === "DEACTIVATED" ? t("deactivatedBody") : t("contactDisabled");
  return card(
    "finder-contact",
    html`<h2 id="finder-contact" class="text-xl font-bold text-ink">${t("contactHeading")}</h2>${
      closedText === null ? html`<p class="text-muted">${t("contactIntro")}</p>${contactForm(words, encryptedId, state)}` : html`<p class="text-ink">${closedText}</p>`
    }`,
  );
}

/** "Share where it is": explained without JavaScript, a button with it (location-script.ts). */
function locationCard({ t }: FinderWords, encryptedId: string): Html {
  const endpoint = `/api/v1/scan/${encodeURIComponent(encryptedId)}/location`;
  return card(
    "finder-location",
    html`<h2 id="finder-location" class="text-lg font-bold text-ink">${t("locationHeading")}</h2><p class="text-sm text-muted">${t("locationIntro")}</p><div data-share-location data-endpoint="${endpoint}" data-button="${t("locationButton")}" data-pending="${t("locationPending")}" data-sent="${t("locationSent")}" data-denied="${t("locationDenied")}" data-unavailable="${t("locationUnavailable")}" data-failed="${t("failed")}"><p class="text-sm text-muted" data-needs-script>${t("locationNeedsScript")}</p><div class="flex flex-col gap-2" data-controls hidden><button type="button" class="btn-secondary w-full sm:w-auto">${t("locationButton")}</button><p role="status" class="text-sm text-muted"></p></div></div>`,
  );
}

/** The page's main content for a tag that has an owner, and whether it needs the location script. */
export function tagPageBody(words: FinderWords, view: PublicScanView, encryptedId: string, state: FormState): { body: Html; locationScript: boolean } {
  const body = html`${tagCard(words, view, { actions: actionButtons(words, view, encryptedId) })}${view.relay ? relayCard(words, view.relay) : null}${contactCard(words, view, encryptedId, state)}${
    view.contactEnabled ? locationCard(words, encryptedId) : null
  }${safetyAdvice(words)}`;
  return { body, locationScript: view.contactEnabled };
}
