import { DateTime } from "@/components/dashboard/date-time";
import { Panel } from "@/components/dashboard/panel";
import { ActionForm } from "@/components/forms/action-form";
import { FieldsForm } from "@/components/tags/fields-form";
import { getCountries, getCountryCallingCode } from "libphonenumber-js/max";
import type { ServiceContext } from "@/lib/services/context";
import { getVerifiedPhone, pendingPhoneCode } from "@/lib/services/relay";
import { requestPhoneCodeAction, verifyPhoneCodeAction } from "./phone-actions";

/** The API's `country` for a number written without +: every country libphonenumber-js knows, by English name. */
function countryOptions(): { value: string; label: string }[] {
  const names = new Intl.DisplayNames(["en"], { type: "region" });
  const countries = getCountries()
    .map((code) => ({ value: code, label: `${names.of(code) ?? code} (+${getCountryCallingCode(code)})` }))
    .sort((a, b) => a.label.localeCompare(b.label, "en"));
  return [{ value: "", label: "None: the number starts with +" }, ...countries];
}

/** Only the last 2 digits of a number are ever shown (docs/relay.md). */
export const maskedNumber = (lastDigits: string) => `•••• ${lastDigits}`;

/**
 * "Phone for calls and texts from finders": the number the relay puts finders through to, proven by a texted
 * code. Three states, read from the server so the page works without JavaScript: nothing yet (the number
 * form), a code pending (the code form first, a new number folded), verified (the masked number, "Change it"
 * folded).
 */
export async function RelayPhonePanel({ ctx, timeZone }: { ctx: ServiceContext; timeZone: string }) {
  const [verified, pending] = await Promise.all([getVerifiedPhone(ctx), pendingPhoneCode(ctx)]);
  const numberForm = (
    <FieldsForm
      action={requestPhoneCodeAction}
      formLabel={verified ? "Change the number" : "Your phone number"}
      keepFieldsOnSuccess={false}
      columns={2}
      fields={[
        {
          name: "phone",
          label: "Mobile number",
          kind: "tel",
          autoComplete: "tel",
          inputMode: "tel",
          maxLength: 40,
          hint: "It must receive texts. In international form (+49 151 23456789), or choose its country.",
        },
        { name: "country", label: "Country", kind: "select", optional: true, options: countryOptions() },
      ]}
      submitLabel="Send code"
      pendingLabel="Sending…"
    />
  );
  return (
    <Panel
      id="relay-phone"
      title="Phone for calls and texts from finders"
      description="Finders can call or text you through our relay, with the tag's PIN, on the tags where you turn it on. They never see this number, and you never see theirs."
    >
      <div className="flex flex-col gap-5">
        {verified ? (
          <p className="text-ink" data-testid="relay-phone-verified">
            Verified number: <span className="font-mono font-semibold">{maskedNumber(verified.lastDigits)}</span>{" "}
            <span className="text-sm text-muted">
              (since <DateTime iso={verified.verifiedAt} timeZone={timeZone} dateOnly />)
            </span>
          </p>
        ) : null}
        {pending ? (
          <ActionForm
            action={verifyPhoneCodeAction}
            formLabel="Confirm your number"
            intro={
              <p className="text-sm text-ink">
                Enter the 6-digit code we texted to <span className="font-mono font-semibold">{maskedNumber(pending.lastDigits)}</span>. It works until{" "}
                <DateTime iso={pending.expiresAt} timeZone={timeZone} />, for 5 tries.
              </p>
            }
            fields={[{ name: "code", label: "Code", autoComplete: "one-time-code", inputMode: "numeric", pattern: "[0-9]{6}", maxLength: 6, minLength: 6, spellCheck: false }]}
            inline
            submitLabel="Confirm"
            pendingLabel="Checking…"
          />
        ) : null}
        {verified || pending ? (
          <details className="rounded-lg border border-line px-4 py-2">
            <summary className="min-h-10 cursor-pointer content-center font-semibold text-ink">{pending ? "Send a new code, or use another number" : "Change the number"}</summary>
            <div className="mt-2 mb-3">{numberForm}</div>
          </details>
        ) : (
          numberForm
        )}
      </div>
    </Panel>
  );
}
