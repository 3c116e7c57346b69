import Link from "next/link";
import { Panel } from "@/components/dashboard/panel";
import { FieldsForm } from "@/components/tags/fields-form";
import { requireUser, type ServiceContext } from "@/lib/services/context";
import { getRelaySettings, getVerifiedPhone, ownerTimeZone } from "@/lib/services/relay";
import { regenerateRelayPinAction, updateTagRelayAction } from "./relay-actions";

export type RelayPanelState = { phone: Awaited<ReturnType<typeof getVerifiedPhone>>; relay: Awaited<ReturnType<typeof getRelaySettings>> };

/** What the relay section shows, read once by the page, which also uses it to place the section. */
export async function relayPanelState(ctx: ServiceContext, tagId: string): Promise<RelayPanelState> {
  const [phone, relay] = await Promise.all([getVerifiedPhone(ctx), getRelaySettings(ctx, tagId)]);
  return { phone, relay };
}

/**
 * While lost or stolen, the section follows lost mode when there is something to do at once (the relay is
 * on, or a verified phone can turn it on); otherwise it waits under "More", so the short tag page on a
 * phone stays short (docs/reunion.md).
 */
export function relayUpFront(lost: boolean, { phone, relay }: RelayPanelState): boolean {
  return lost && (phone !== null || relay.enabled);
}

/**
 * "Calls and texts through the relay" for one tag (docs/relay.md): on or off, quiet hours in the owner's
 * zone, and while on, the relay's number and the tag's PIN with "New PIN". Without a verified phone, a link
 * to the account's phone section instead of the switch.
 */
export async function RelayPanel({ ctx, tagId, state }: { ctx: ServiceContext; tagId: string; state: RelayPanelState }) {
  const { phone, relay } = state;
  const description = "Finders call or text our relay number with this tag's PIN and reach your verified phone. Neither side sees the other's number.";
  if (!phone && !relay.enabled) {
    return (
      <Panel id="relay" title="Calls and texts through the relay" description={description}>
        <p className="text-ink">
          First verify the phone finders should reach:{" "}
          <Link href="/dashboard/account#relay-phone-heading" className="font-semibold text-brand-700 underline hover:text-brand-800">
            add your phone number in your account settings
          </Link>
          .
        </p>
      </Panel>
    );
  }
  const zone = relay.quietHours?.timeZone ?? (await ownerTimeZone(ctx.db, requireUser(ctx).userId));
  return (
    <Panel id="relay" title="Calls and texts through the relay" description={description}>
      <div className="flex flex-col gap-5">
        {relay.enabled && relay.pin ? (
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-ink" data-testid="relay-settings">
            <dt className="font-semibold">Relay number</dt>
            <dd className="font-mono">{relay.number}</dd>
            <dt className="font-semibold">PIN for this tag</dt>
            <dd className="font-mono text-lg font-bold tracking-widest">{relay.pin}</dd>
          </dl>
        ) : (
          <p className="text-sm text-muted">The relay is off for this tag: finders see no phone number.</p>
        )}
        <FieldsForm
          action={updateTagRelayAction}
          formLabel="Relay settings"
          hidden={{ tagId }}
          columns={2}
          fields={[
            {
              name: "enabled",
              label: "Let finders call or text me through the relay",
              kind: "checkbox",
              defaultValue: relay.enabled ? "true" : "",
              hint: phone ? <span className="text-sm text-muted">Calls ring your verified number ending in {phone.lastDigits}.</span> : undefined,
            },
            { name: "quietFrom", label: "Quiet from", optional: true, maxLength: 5, defaultValue: relay.quietHours?.from ?? "", hint: "24-hour time, e.g. 22:00" },
            { name: "quietTo", label: "Quiet until", optional: true, maxLength: 5, defaultValue: relay.quietHours?.to ?? "", hint: "e.g. 07:00" },
          ]}
          groups={[
            {
              names: ["quietFrom", "quietTo"],
              legend: "Quiet hours (optional)",
              hint: `No calls are put through between these times; finders are asked to text instead. They are in your time zone, ${zone} (set it in your notification settings; UTC until you choose one). Leave both empty for none.`,
            },
          ]}
          submitLabel="Save relay settings"
          pendingLabel="Saving…"
        />
        {relay.enabled ? (
          <FieldsForm
            action={regenerateRelayPinAction}
            formLabel="New PIN"
            hidden={{ tagId }}
            fields={[]}
            variant="secondary"
            intro={<p className="text-sm text-muted">A new PIN stops the old one at once, for example after sharing it with the wrong person.</p>}
            submitLabel="New PIN"
            pendingLabel="Changing…"
          />
        ) : null}
      </div>
    </Panel>
  );
}
