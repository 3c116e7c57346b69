import type { Metadata } from "next";
import { BackLink } from "@/components/dashboard/back-link";
import { PageHeading } from "@/components/dashboard/page-heading";
import { Panel } from "@/components/dashboard/panel";
import { requireUserContext } from "@/lib/http/page-context";
import { browserTimeZone } from "@/lib/http/viewer-time-zone";
import { getNotificationPreferences, pushEndpointsOfThisDevice } from "@/lib/services/notifications";
import { PreferencesForm } from "./preferences-form";
import { PushDevice } from "./push-device";

export const metadata: Metadata = { title: "Notification settings" };

/** Every IANA zone the server's Intl knows, with UTC first and the user's current zone always present. */
function timeZoneOptions(current: string | null): string[] {
  const zones = new Set<string>(["UTC"]);
  if (current) zones.add(current);
  for (const zone of Intl.supportedValuesOf("timeZone")) zones.add(zone);
  return [...zones];
}

export default async function NotificationPreferencesPage() {
  const ctx = await requireUserContext("/dashboard/notifications/preferences");
  const [preferences, registeredEndpoints, browserZone] = await Promise.all([getNotificationPreferences(ctx), pushEndpointsOfThisDevice(ctx), browserTimeZone()]);

  return (
    <div className="max-w-3xl">
      <BackLink href="/dashboard/notifications" className="mb-2 text-sm">
        All notifications
      </BackLink>
      <PageHeading title="Notification settings">
        Choose what reaches you by e-mail and push, and the time zone your dates are shown in. Everything also appears in your notifications list. Security and payment e-mails always go out.
      </PageHeading>
      <div className="flex flex-col gap-6">
        <Panel id="notification-channels" title="E-mail, push, your zone and quiet hours">
          <PreferencesForm preferences={preferences} timeZones={timeZoneOptions(preferences.timeZone)} browserZone={browserZone} />
        </Panel>
        <Panel id="push-device" title="Push on this device" description="Push notifications show on this browser even when the site is closed. Enable them on each device you want them on.">
          <PushDevice registeredEndpoints={registeredEndpoints} />
        </Panel>
      </div>
    </div>
  );
}
