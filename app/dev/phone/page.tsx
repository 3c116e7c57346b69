import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { devPhoneEnabled } from "@/lib/env";
import { testNetwork, type CallLeg } from "@/lib/telephony/test-network";
import { listTestDeliveries, listTestRecipients, type TestTelephonyDelivery } from "@/lib/telephony/test-provider";
import { answerCallAction, declineCallAction, dialRelayAction, hangUpAction, pressKeysAction, ringOutAction, sendTextAction, stayQuietAction } from "./actions";

// Reads the test network on every request; never prerendered (it must also 404 when the phone is off).
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Development phone",
  robots: { index: false, follow: false },
};

/** The finder's phone unless another is chosen: a valid US number (FromCountry US, so English prompts). */
const DEFAULT_FINDER = "+14155550100";
const E164 = /^\+[1-9]\d{6,14}$/;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function firstValue(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? "";
}

const NOTICES: Record<string, string> = {
  "not-waiting": "That call is not in that step any more (it moved on or ended). The page shows where it is now.",
  invalid: "Check the number, the keys (0–9, * and #) or the text.",
  "text-failed": "The app's SMS webhook did not answer the text (see the server log); nothing came back.",
};

const input =
  "min-h-11 w-full rounded-md border border-gray-500 bg-white px-3 py-2 text-base text-gray-900 placeholder:text-gray-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700";
const primary =
  "min-h-11 rounded-md bg-blue-700 px-4 py-2 text-base font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700";
const secondary =
  "min-h-11 rounded-md border border-gray-500 bg-white px-4 py-2 text-base font-medium text-gray-900 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700";
const danger =
  "min-h-11 rounded-md bg-red-700 px-4 py-2 text-base font-semibold text-white hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700";

function formatTime(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(11, 19)} UTC`;
}

const STATUS_TEXT: Record<CallLeg["status"], string> = {
  gathering: "The relay is waiting for keys",
  dialing: "Ringing the owner…",
  ringing: "Incoming call",
  whisper: "Answered: the relay is speaking",
  connected: "Connected",
  busy: "Waiting for the app… (reload)",
  ended: "Call ended",
};

export default async function DevPhonePage({ searchParams }: { searchParams: SearchParams }) {
  if (!devPhoneEnabled()) notFound();
  const query = await searchParams;
  const network = testNetwork();
  const relay = network.relayNumber;
  const finderInput = firstValue(query.finder);
  const finder = E164.test(finderInput) ? finderInput : DEFAULT_FINDER;
  const recipients = (await listTestRecipients(relay)).filter((number) => number !== finder);
  const ownerInput = firstValue(query.owner);
  const owner = E164.test(ownerInput) ? ownerInput : recipients[0];
  const notice = NOTICES[firstValue(query.notice)];
  const [finderPhone, ownerPhone] = await Promise.all([phoneState(finder), owner ? phoneState(owner) : undefined]);

  return (
    <div className="mx-auto w-full max-w-6xl bg-white px-4 py-6 text-gray-900 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-bold sm:text-3xl">Development phone</h1>
      <p className="mt-2 max-w-3xl text-base text-gray-700">
        Two phones on the test telephony network. Calling or texting the relay number <strong>{relay}</strong> sends the app the same signed
        webhooks Twilio would, and each phone shows what the app answered: what is said, who rings, the texts received. The owner&apos;s
        phone is a number that received the relay&apos;s texts (the verification codes, say). Reload to see changes made elsewhere.
      </p>

      {notice ? (
        <p role="status" className="mt-4 rounded-md border border-amber-600 bg-amber-50 p-3 text-base text-gray-900">
          {notice}
        </p>
      ) : null}

      <form method="get" action="/dev/phone" className="mt-6 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end" aria-label="Choose the phones">
        <div className="flex flex-col gap-1">
          <label htmlFor="phone-finder" className="text-sm font-medium">
            Finder&apos;s number
          </label>
          <input id="phone-finder" name="finder" type="tel" defaultValue={finder} autoComplete="off" pattern="\+[1-9][0-9]{6,14}" className={input} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="phone-owner" className="text-sm font-medium">
            Owner&apos;s number
          </label>
          <input id="phone-owner" name="owner" type="tel" list="phone-owner-numbers" defaultValue={owner ?? ""} autoComplete="off" pattern="\+[1-9][0-9]{6,14}" placeholder="+4915123456789" className={input} />
          <datalist id="phone-owner-numbers">
            {recipients.map((number) => (
              <option key={number} value={number} />
            ))}
          </datalist>
        </div>
        <button type="submit" className={primary}>
          Show
        </button>
      </form>

      <div className="mt-8 grid gap-6 md:grid-cols-2">
        <Phone role="finder" state={finderPhone} finder={finder} owner={owner} relay={relay} />
        {ownerPhone ? (
          <Phone role="owner" state={ownerPhone} finder={finder} owner={owner} relay={relay} />
        ) : (
          <section aria-labelledby="owner-phone" className="rounded-lg border border-gray-300 p-4">
            <h2 id="owner-phone" className="text-lg font-semibold">
              Owner&apos;s phone
            </h2>
            <p className="mt-2 text-base text-gray-700">No number yet: verify a phone on the account page (its code arrives here), or type the owner&apos;s number above.</p>
          </section>
        )}
      </div>
    </div>
  );
}

/** Hidden fields every form carries, so the page comes back to the same two phones. */
function Phones({ finder, owner }: { finder: string; owner?: string }) {
  return (
    <>
      <input type="hidden" name="finder" value={finder} />
      {owner ? <input type="hidden" name="owner" value={owner} /> : null}
    </>
  );
}

interface PhoneState {
  number: string;
  calls: CallLeg[];
  deliveries: TestTelephonyDelivery[];
}

/** What one phone shows: its last calls (made or rung) and what it sent and received, newest first. */
async function phoneState(number: string): Promise<PhoneState> {
  const [calls, deliveries] = await Promise.all([testNetwork().callsOf(number, 3), listTestDeliveries(number, 30)]);
  return { number, calls, deliveries };
}

function Phone({ role, state, finder, owner, relay }: { role: "finder" | "owner"; state: PhoneState; finder: string; owner?: string; relay: string }) {
  const { number, calls, deliveries } = state;
  const current = calls.find((call) => call.status !== "ended");
  const last = current ? undefined : calls[0];
  const headingId = `${role}-phone`;
  const title = role === "finder" ? "Finder's phone" : "Owner's phone";

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-5 rounded-lg border border-gray-300 p-4 shadow-sm sm:p-5">
      <h2 id={headingId} className="text-lg font-semibold">
        {title} <span className="font-mono text-base font-normal">{number}</span>
      </h2>

      <section aria-label={`${title}: call`} className="rounded-md bg-gray-50 p-3">
        <h3 className="text-base font-semibold">Call</h3>
        {current ? <CallScreen call={current} role={role} finder={finder} owner={owner} /> : null}
        {!current && role === "finder" ? (
          <form action={dialRelayAction} className="mt-2">
            <Phones finder={finder} owner={owner} />
            <button type="submit" className={primary}>
              Call the relay ({relay})
            </button>
          </form>
        ) : null}
        {!current && role === "owner" ? <p className="mt-1 text-base text-gray-700">Not ringing.</p> : null}
        {last ? (
          <details className="mt-3">
            <summary className="cursor-pointer text-sm font-semibold text-blue-700 underline">Last call ({last.endStatus ?? "ended"})</summary>
            <Transcript call={last} />
          </details>
        ) : null}
      </section>

      <form action={sendTextAction} className="flex flex-col gap-2">
        <Phones finder={finder} owner={owner} />
        <input type="hidden" name="from" value={number} />
        <label htmlFor={`${role}-text`} className="text-sm font-medium">
          Text the relay
        </label>
        <textarea
          id={`${role}-text`}
          name="body"
          required
          maxLength={1600}
          rows={2}
          placeholder={role === "finder" ? "123456 I found your dog near the park" : "Thank you! I am on my way."}
          className={input}
        />
        <button type="submit" className={`${primary} self-start`}>
          Send text
        </button>
      </form>

      <section aria-label={`${title}: messages`}>
        <h3 className="text-base font-semibold">Messages and calls</h3>
        {deliveries.length === 0 ? <p className="mt-1 text-base text-gray-700">Nothing yet.</p> : null}
        <ol className="mt-2 flex flex-col gap-2">
          {deliveries.map((delivery) => {
            const incoming = delivery.to === number;
            return (
              <li key={delivery.id} className={`rounded-md border p-2 ${incoming ? "border-gray-300 bg-white" : "border-blue-200 bg-blue-50"}`}>
                <p className="text-sm text-gray-700">
                  {delivery.kind === "call" ? (incoming ? `Call from ${delivery.from}` : `Call to ${delivery.to}`) : incoming ? `From ${delivery.from}` : `To ${delivery.to}`} ·{" "}
                  <time dateTime={delivery.createdAt.toISOString()}>{formatTime(delivery.createdAt)}</time>
                </p>
                {delivery.body ? <p className="mt-1 text-base wrap-anywhere whitespace-pre-wrap">{delivery.body}</p> : null}
              </li>
            );
          })}
        </ol>
      </section>
    </section>
  );
}

function Transcript({ call }: { call: CallLeg }) {
  if (call.transcript.length === 0) return null;
  return (
    <ol className="mt-2 flex flex-col gap-1" aria-label="What was said">
      {call.transcript.map((entry, index) => (
        <li key={index} className={entry.kind === "say" ? "text-base" : "text-sm text-gray-700 italic"}>
          {entry.kind === "say" ? (
            <>
              <span aria-hidden="true">🔊 </span>
              <q lang={entry.language}>{entry.text}</q>
            </>
          ) : (
            entry.text
          )}
        </li>
      ))}
    </ol>
  );
}

function CallScreen({ call, role, finder, owner }: { call: CallLeg; role: "finder" | "owner"; finder: string; owner?: string }) {
  const hidden = (
    <>
      <Phones finder={finder} owner={owner} />
      <input type="hidden" name="sid" value={call.sid} />
    </>
  );
  const waitsForKeys = call.status === "gathering" || call.status === "whisper";
  return (
    <div className="mt-1">
      <p role="status" className="text-base font-medium">
        {STATUS_TEXT[call.status]}
        {call.status === "ringing" ? ` from ${call.from}` : ""}
      </p>
      <Transcript call={call} />
      <div className="mt-3 flex flex-wrap items-end gap-2">
        {waitsForKeys ? (
          <form action={pressKeysAction} className="flex items-end gap-2">
            {hidden}
            <div className="flex flex-col gap-1">
              <label htmlFor={`${role}-keys`} className="text-sm font-medium">
                Keypad
              </label>
              <input id={`${role}-keys`} name="keys" inputMode="numeric" required pattern="[0-9*#]{1,20}" autoComplete="off" className={`${input} w-36`} />
            </div>
            <button type="submit" className={primary}>
              Press
            </button>
          </form>
        ) : null}
        {waitsForKeys ? (
          <form action={stayQuietAction}>
            {hidden}
            <button type="submit" className={secondary}>
              Press nothing (time out)
            </button>
          </form>
        ) : null}
        {call.status === "ringing" && role === "owner" ? (
          <>
            <form action={answerCallAction}>
              {hidden}
              <button type="submit" className={primary}>
                Answer
              </button>
            </form>
            <form action={declineCallAction}>
              {hidden}
              <button type="submit" className={danger}>
                Decline
              </button>
            </form>
            <form action={ringOutAction}>
              {hidden}
              <button type="submit" className={secondary}>
                Let it ring out
              </button>
            </form>
          </>
        ) : null}
        {call.status !== "ringing" ? (
          <form action={hangUpAction}>
            {hidden}
            <button type="submit" className={danger}>
              Hang up
            </button>
          </form>
        ) : null}
      </div>
    </div>
  );
}
