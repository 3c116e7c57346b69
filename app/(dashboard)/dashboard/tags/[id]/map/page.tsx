import type { Metadata } from "next";
import { BackLink } from "@/components/dashboard/back-link";
import { DateTime } from "@/components/dashboard/date-time";
import { PageHeading } from "@/components/dashboard/page-heading";
import { Panel } from "@/components/dashboard/panel";
import { MapLegend, mapPlacesOf, PlaceList, type ListedPlace } from "@/components/maps/place-list";
import { PlacesMap } from "@/components/maps/places-map";
import { countryName, scanClassLabels } from "@/components/tags/scan-list";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { type ScanRecord, TAG_MAP_PLACES, tagMapPlaces } from "@/lib/services/tags";
import { loadOwnedTag } from "../load";

export const metadata: Metadata = { title: "Map of scans and shared locations" };

type Params = Promise<{ id: string }>;

/** A scan as a listed place: a finder's shared location, or a real scan with where the network put it. */
function placeOf(scan: ScanRecord): ListedPlace {
  const where = [scan.city, countryName(scan.country)].filter(Boolean).join(", ");
  return {
    id: scan.id,
    kind: scan.locationShared ? "shared" : "scan",
    title: scan.locationShared ? "Location shared by a finder" : scanClassLabels.REAL.label,
    detail: [scan.agent, where].filter(Boolean).join(" · ") || null,
    latitude: scan.latitude,
    longitude: scan.longitude,
    accuracy: scan.locationShared ? scan.accuracy : null,
    at: scan.scannedAt,
  };
}

/**
 * /dashboard/tags/:id/map: where the tag has been seen. Finders' shared locations (from the finder page
 * and from conversations) and real scans placed by the network on an OpenStreetMap map (Leaflet, loaded
 * on this page only), the same places listed with links that work without JavaScript, and the scans that
 * only name a city beside them. The owner's times are in their own zone. Another owner's tag is 404.
 */
export default async function TagMapPage({ params }: { params: Params }) {
  const { id } = await params;
  const path = `/dashboard/tags/${id}/map`;
  const { ctx, tag } = await loadOwnedTag(id, path);
  const [places, timeZone] = await Promise.all([tagMapPlaces(ctx, tag.id), viewerTimeZone()]);
  const name = tag.itemName ?? "Unnamed tag";
  const located = places.located.map(placeOf);

  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <BackLink href={`/dashboard/tags/${tag.id}`}>Back to {name}</BackLink>
      <PageHeading title={`Where ${name} was seen`}>
        <p>
          Places finders shared with you, and the real scans the network could place. A shared location is precise (the finder&apos;s phone measured it); a scan&apos;s place is
          only where the scanning phone&apos;s network is, often just the city. Bots, link previews, repeats and your own scans are left out.
        </p>
        {places.truncated ? <p className="mt-2">Only the newest {TAG_MAP_PLACES} places are shown.</p> : null}
      </PageHeading>

      <Panel id="tag-map" title="Map" description={located.length ? undefined : "Nothing has been placed on the map yet: no finder shared a location, and no real scan came with coordinates."}>
        <div className="flex flex-col gap-3">
          <PlacesMap places={mapPlacesOf(located, timeZone)} label="Map of scans and shared locations" describedBy="tag-map-places-heading" />
          <MapLegend />
        </div>
      </Panel>

      <Panel id="tag-map-places" title="Places on the map" description="Newest first. Each opens in OpenStreetMap or in your phone's maps app.">
        {located.length ? <PlaceList places={located} timeZone={timeZone} label="Places on the map" /> : <p className="text-muted">No places yet.</p>}
      </Panel>

      {places.cityOnly.length ? (
        <Panel id="tag-map-cities" title="Scans with only a city or country" description="The network named where these scans came from, but not the coordinates, so they are not on the map.">
          <ul aria-label="Scans with only a city or country" className="flex flex-col divide-y divide-line">
            {places.cityOnly.map((scan) => (
              <li key={scan.id} className="flex flex-col gap-0.5 py-2 text-sm" data-place-id={scan.id}>
                <span className="font-semibold break-words text-ink">{[scan.city, countryName(scan.country)].filter(Boolean).join(", ")}</span>
                <span className="text-muted">
                  <DateTime iso={scan.scannedAt} timeZone={timeZone} />
                  {scan.agent ? ` · ${scan.agent}` : ""}
                </span>
              </li>
            ))}
          </ul>
        </Panel>
      ) : null}
    </div>
  );
}
