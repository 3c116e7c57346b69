import { DateTime } from "@/components/dashboard/date-time";
import { formatDateTime } from "@/components/dashboard/dates";
import { formatPlace, geoUri, openStreetMapUrl } from "@/lib/maps/links";
import type { MapPlace } from "./places-map";

/** A place as the owner's pages list it: a finder's shared location or a scan, with or without coordinates. */
export interface ListedPlace {
  id: string;
  kind: "shared" | "scan";
  /** What it is, short: "Shared by Sam", "Real scan". */
  title: string;
  /** More about it, when known: the kind of phone, the city. */
  detail?: string | null;
  latitude: number | null;
  longitude: number | null;
  accuracy: number | null;
  /** When (ISO 8601). */
  at: string;
}

const badge = "inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap";
const badgeTone = { shared: "border-reward-800 bg-reward-50 text-reward-800", scan: "border-brand-700 bg-brand-50 text-brand-900" } as const;
const link = "inline-flex min-h-10 items-center font-semibold text-brand-700 underline";

/** The map's markers for the places that have coordinates, each labelled with what and when. */
export function mapPlacesOf(places: ListedPlace[], timeZone: string): MapPlace[] {
  return places.flatMap((place) =>
    place.latitude !== null && place.longitude !== null
      ? [{ id: place.id, kind: place.kind, latitude: place.latitude, longitude: place.longitude, accuracy: place.accuracy, label: `${place.title} · ${formatDateTime(place.at, timeZone)}` }]
      : [],
  );
}

/**
 * The places as a list: what works without JavaScript, and for anyone who cannot use a map. Each has its
 * time (in the owner's zone), its accuracy, and links to the place on OpenStreetMap and in the phone's
 * maps app (geo:). Places without coordinates show what is known (a city, a country).
 */
export function PlaceList({ places, timeZone, label, id }: { places: ListedPlace[]; timeZone: string; label: string; id?: string }) {
  return (
    <ol id={id} aria-label={label} className="flex flex-col divide-y divide-line">
      {places.map((place) => {
        const when = formatDateTime(place.at, timeZone);
        const located = place.latitude !== null && place.longitude !== null;
        return (
          <li key={place.id} className="flex flex-col gap-1 py-3" data-place-id={place.id} data-place-kind={place.kind}>
            <p className="flex flex-wrap items-center gap-2">
              <span className={`${badge} ${badgeTone[place.kind]}`}>{place.title}</span>
              <span className="text-sm text-ink">
                <DateTime iso={place.at} timeZone={timeZone} />
              </span>
            </p>
            {place.detail ? <p className="text-sm break-words text-muted">{place.detail}</p> : null}
            {located ? (
              <>
                <p className="text-sm text-ink">
                  {formatPlace(place.latitude!, place.longitude!)}
                  {place.accuracy !== null ? ` (within ${Math.round(place.accuracy)} m)` : place.kind === "scan" ? " (approximate: placed by the network, often only the city)" : ""}
                </p>
                <p className="flex flex-wrap gap-x-4 text-sm">
                  <a href={openStreetMapUrl(place.latitude!, place.longitude!)} className={link} target="_blank" rel="noopener noreferrer">
                    Open in OpenStreetMap<span className="sr-only"> ({place.title}, {when}, opens in a new tab)</span>
                  </a>
                  <a href={geoUri(place.latitude!, place.longitude!)} className={link}>
                    Open in your maps app<span className="sr-only"> ({place.title}, {when})</span>
                  </a>
                </p>
              </>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

/** The map's key: the words carry the meaning, the colours only help. */
export function MapLegend({ scans = true }: { scans?: boolean }) {
  return (
    <ul aria-label="Map key" className="flex flex-wrap gap-x-5 gap-y-1 text-sm text-ink">
      <li className="flex items-center gap-2">
        <span aria-hidden="true" className="inline-block size-3.5 rounded-full border-2 border-white bg-reward-800 ring-1 ring-reward-800" />
        Shared by a finder (precise; the shaded circle is its accuracy)
      </li>
      {scans ? (
        <li className="flex items-center gap-2">
          <span aria-hidden="true" className="inline-block size-3 rounded-full border-2 border-white bg-brand-700 ring-1 ring-brand-700" />
          Scan (approximate: placed by the network)
        </li>
      ) : null}
    </ul>
  );
}
