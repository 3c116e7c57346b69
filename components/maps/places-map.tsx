"use client";

// Leaflet's stylesheet goes with this component, so only the pages that show a map load it.
import "leaflet/dist/leaflet.css";
import type { CircleMarker, Map as LeafletMap } from "leaflet";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { OSM_TILES, openStreetMapUrl } from "@/lib/maps/links";

/** One marker: a finder's shared location (precise) or a scan placed by the network (a city, roughly). */
export interface MapPlace {
  id: string;
  latitude: number;
  longitude: number;
  /** A shared location's radius of uncertainty in metres, drawn as a circle; null for none or a scan. */
  accuracy: number | null;
  kind: "shared" | "scan";
  /** What and when, one line ("Shared by Sam · 12 Mar 2026, 15:05 CET"): the marker's tooltip and popup. */
  label: string;
}

/** The markers' colours (the theme's reward-800 and brand-700), with a white ring that shows on any tile. */
const STYLE = {
  shared: { color: "#ffffff", fillColor: "#92400e", radius: 9 },
  scan: { color: "#ffffff", fillColor: "#1d4ed8", radius: 7 },
} as const;

const noSubscription = () => () => {};

/** The box's words; a page in the visitor's language (the public lost page) gives its own. */
export interface PlacesMapTexts {
  needsScript: string;
  failed: string;
  loading: string;
  openInOsm: string;
}

const englishTexts: PlacesMapTexts = {
  needsScript: "The map needs JavaScript. Every place is listed below, with links to OpenStreetMap and to your maps app.",
  failed: "The map could not be loaded. Every place is listed below, with links to OpenStreetMap and to your maps app.",
  loading: "Loading the map…",
  openInOsm: "Open in OpenStreetMap",
};

type Phase = "loading" | "ready" | "failed";

/**
 * A map of places with OpenStreetMap's tiles, drawn by Leaflet. Leaflet (and its stylesheet) load only on
 * the pages that use this, and its code only once the page runs: the import is inside the effect. Markers
 * are SVG circles (circleMarker), so no marker image is fetched, and they draw even when the tiles cannot
 * load. Without JavaScript the box says so; every page that shows a map lists the same places beside it
 * with links to OpenStreetMap and to the phone's maps app (the static fallback).
 *
 * Each marker carries `data-place-id` and the class `map-place map-place-<kind>`; the container gets
 * `data-map-state` (loading, ready, failed) and `data-place-count`.
 */
export function PlacesMap({
  places,
  label,
  describedBy,
  texts,
  singleZoom = 16,
}: {
  places: MapPlace[];
  label: string;
  describedBy?: string;
  texts?: Partial<PlacesMapTexts>;
  /** The zoom for a lone place: street level by default; an area (a rounded place) wants less. */
  singleZoom?: number;
}) {
  const words = { ...englishTexts, ...texts };
  const container = useRef<HTMLDivElement>(null);
  const [phase, setPhase] = useState<Phase>("loading");
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  // Re-drawn only when the places themselves change, not on every re-render of the page.
  const key = JSON.stringify(places);
  const openInOsm = words.openInOsm;

  useEffect(() => {
    const shown: MapPlace[] = JSON.parse(key);
    let map: LeafletMap | undefined;
    let cancelled = false;
    import("leaflet")
      .then((leaflet) => {
        // A CommonJS module: the bundler hands its exports over as `default` (and, depending on it, also as the namespace).
        const L = leaflet.default ?? (leaflet as unknown as typeof leaflet.default);
        if (cancelled || !container.current) return;
        map = L.map(container.current, { scrollWheelZoom: false, worldCopyJump: true });
        L.tileLayer(OSM_TILES.url, { attribution: OSM_TILES.attribution, maxZoom: OSM_TILES.maxZoom }).addTo(map);
        const markers: CircleMarker[] = [];
        // Oldest first, so the newest place is drawn on top.
        for (const place of [...shown].reverse()) {
          const at = L.latLng(place.latitude, place.longitude);
          if (place.kind === "shared" && place.accuracy !== null && place.accuracy > 0) {
            L.circle(at, { radius: place.accuracy, color: STYLE.shared.fillColor, weight: 1, fillOpacity: 0.12, interactive: false }).addTo(map);
          }
          const style = STYLE[place.kind];
          const marker = L.circleMarker(at, { ...style, weight: 2, fillOpacity: 0.95, className: `map-place map-place-${place.kind}` });
          marker.bindTooltip(place.label);
          marker.bindPopup(popupFor(place, openInOsm));
          marker.addTo(map);
          marker.getElement()?.setAttribute("data-place-id", place.id);
          markers.push(marker);
        }
        if (markers.length === 0) map.setView([20, 0], 2);
        else if (markers.length === 1) map.setView(markers[0]!.getLatLng(), singleZoom);
        else map.fitBounds(L.featureGroup(markers).getBounds(), { padding: [32, 32], maxZoom: 16 });
        setPhase("ready");
      })
      .catch(() => {
        if (!cancelled) setPhase("failed");
      });
    return () => {
      cancelled = true;
      map?.remove();
    };
  }, [key, openInOsm, singleZoom]);

  const placeholder = !hydrated ? words.needsScript : phase === "failed" ? words.failed : phase === "loading" ? words.loading : null;

  return (
    <div
      role="region"
      aria-label={label}
      aria-describedby={describedBy}
      // Leaflet's panes and controls stack up to z-index 1000: kept inside this box, under the page's own overlays.
      // Without JavaScript only a line of text: no empty box taking a screen's height on a phone.
      className={`relative isolate w-full overflow-hidden rounded-lg border border-line bg-canvas ${hydrated ? "h-72 sm:h-96" : ""}`}
      data-testid="places-map"
      data-map-state={hydrated ? phase : "static"}
      data-place-count={places.length}
    >
      <div ref={container} className="absolute inset-0" />
      {placeholder ? <p className={`${hydrated ? "absolute inset-0 flex items-center justify-center p-6" : "p-4"} text-center text-sm text-muted`}>{placeholder}</p> : null}
    </div>
  );
}

/** The popup's content, built as elements (never HTML from text): the label and a link to the place. */
function popupFor(place: MapPlace, openInOsm: string): HTMLElement {
  const box = document.createElement("div");
  const text = document.createElement("p");
  text.textContent = place.label;
  const link = document.createElement("a");
  link.href = openStreetMapUrl(place.latitude, place.longitude);
  link.target = "_blank";
  link.rel = "noopener noreferrer";
  link.textContent = openInOsm;
  box.append(text, link);
  return box;
}
