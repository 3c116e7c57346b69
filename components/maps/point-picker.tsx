"use client";

// Leaflet's stylesheet goes with this component, so only the pages that pick a place load it.
import "leaflet/dist/leaflet.css";
import type { Circle, CircleMarker, LeafletMouseEvent, Map as LeafletMap } from "leaflet";
import { useEffect, useId, useRef, useState, useSyncExternalStore, type KeyboardEvent, type ReactNode } from "react";
import { FieldErrorList, fieldDescriptionIds, inputClass } from "@/components/forms/field";
import { OSM_TILES, formatCoordinate, formatPlace } from "@/lib/maps/links";

export interface PickedPoint {
  latitude: number;
  longitude: number;
}

export interface PointPickerTexts {
  mapLabel: string;
  /** Under the map: how to choose (tap, keyboard). */
  mapHint: string;
  useMyLocation: string;
  locating: string;
  denied: string;
  unavailable: string;
  none: string;
  chosen: (place: string) => string;
  typeInstead: string;
  latitude: string;
  longitude: string;
  /** Above the number inputs when the page runs without JavaScript. */
  noScriptHint: string;
  loading: string;
  failed: string;
}

const englishTexts: PointPickerTexts = {
  mapLabel: "Map: tap to choose the place",
  mapHint: "Tap or click the map to put the point there. With a keyboard, move the map with the arrow keys and press Enter to choose its centre.",
  useMyLocation: "Use my location",
  locating: "Finding your location…",
  denied: "Your browser did not share your location. Tap the map instead.",
  unavailable: "Your location is not available right now. Tap the map instead.",
  none: "No place chosen yet: tap the map or use your location.",
  chosen: (place) => `Chosen: ${place}`,
  typeInstead: "Type the coordinates instead",
  latitude: "Latitude",
  longitude: "Longitude",
  noScriptHint: "Type the place's coordinates in decimal degrees (on openstreetmap.org, right-click the place and choose “Show address” to read them).",
  loading: "Loading the map…",
  failed: "The map could not be loaded: use your location or type the coordinates.",
};

/** The point's colours: the theme's brand-700 with a white ring, and the radius shaded in it. */
const POINT_STYLE = { color: "#ffffff", fillColor: "#1d4ed8", radius: 9, weight: 2, fillOpacity: 0.95 } as const;
const RADIUS_STYLE = { color: "#1d4ed8", weight: 2, fillOpacity: 0.1, interactive: false } as const;

const noSubscription = () => () => {};

type Phase = "loading" | "ready" | "failed";
type Locating = "idle" | "pending" | "denied" | "unavailable";

/** Five decimals (about a metre), the number a form posts. */
const rounded = (value: number) => Number(value.toFixed(5));

function validPoint(latitude: number, longitude: number): boolean {
  return Number.isFinite(latitude) && Number.isFinite(longitude) && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180;
}

/** A radius input's value in km, or null when it holds none. */
function radiusOf(input: HTMLInputElement | null): number | null {
  if (!input) return null;
  const km = Number.parseFloat(input.value.replace(",", "."));
  return Number.isFinite(km) && km > 0 ? Math.min(km, 500) : null;
}

/**
 * Choosing one place for a form: tap the map (Leaflet with OpenStreetMap's tiles, like PlacesMap: imported
 * inside an effect, a circle marker, no marker image), "Use my location" (the browser is asked only on the
 * tap), or type the coordinates. The form gets `latitude` and `longitude` as hidden inputs. Without
 * JavaScript the server's HTML has plain labelled number inputs of the same names instead, which the
 * component replaces once it runs. `radiusInputId` names a sibling input holding a radius in km (the form's
 * radius field): the area is drawn around the point and follows what is typed there.
 *
 * Test hooks: the map box has `data-testid="point-picker-map"`, `data-map-state` (static, loading, ready,
 * failed), `data-point` ("lat,lng" or empty) and `data-opens-at` (`around`, or empty); the point's marker has
 * the class `point-picker-point`.
 */
export function PointPicker({
  label,
  hint,
  initial = null,
  around = null,
  radiusInputId,
  errors,
  names = { latitude: "latitude", longitude: "longitude" },
  texts: ownTexts,
  required = true,
}: {
  /** The group's legend ("Where was it last seen?"). */
  label: ReactNode;
  hint?: ReactNode;
  initial?: PickedPoint | null;
  /** Where the map opens while no point is chosen (a neighbourhood, not a choice); else the whole world. */
  around?: PickedPoint | null;
  radiusInputId?: string;
  errors?: { latitude?: string[]; longitude?: string[] };
  names?: { latitude: string; longitude: string };
  texts?: Partial<PointPickerTexts>;
  required?: boolean;
}) {
  const texts = { ...englishTexts, ...ownTexts };
  const opensAt = around && validPoint(around.latitude, around.longitude) ? around : null;
  const baseId = useId();
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  const [point, setPoint] = useState<PickedPoint | null>(initial && validPoint(initial.latitude, initial.longitude) ? initial : null);
  const [radiusKm, setRadiusKm] = useState<number | null>(null);
  const [phase, setPhase] = useState<Phase>("loading");
  const [locating, setLocating] = useState<Locating>("idle");
  const [typed, setTyped] = useState({ latitude: initial ? String(initial.latitude) : "", longitude: initial ? String(initial.longitude) : "" });

  const container = useRef<HTMLDivElement>(null);
  const leaflet = useRef<{ L: typeof import("leaflet"); map: LeafletMap; marker?: CircleMarker; circle?: Circle } | null>(null);
  // What the map should show once it is ready, and whether the view should move to it.
  const pointRef = useRef(point);
  const radiusRef = useRef(radiusKm);
  // Read once, when the map is first drawn: a starting view, not something to follow.
  const opensAtRef = useRef(opensAt);
  useEffect(() => {
    pointRef.current = point;
    radiusRef.current = radiusKm;
  }, [point, radiusKm]);

  const choose = (latitude: number, longitude: number, source: "map" | "location" | "typed") => {
    const next = { latitude: rounded(latitude), longitude: rounded(longitude) };
    setPoint(next);
    if (source !== "typed") setTyped({ latitude: String(next.latitude), longitude: String(next.longitude) });
    const current = leaflet.current;
    if (!current) return;
    if (source === "location" || source === "typed") frame(current, next, radiusRef.current);
    else if (current.map.getZoom() < 11) current.map.setView([next.latitude, next.longitude], current.map.getZoom() + 4);
  };

  // The radius follows the sibling input as it is typed.
  useEffect(() => {
    if (!radiusInputId) return;
    const input = document.getElementById(radiusInputId) as HTMLInputElement | null;
    if (!input) return;
    const read = () => setRadiusKm(radiusOf(input));
    read();
    input.addEventListener("input", read);
    input.addEventListener("change", read);
    return () => {
      input.removeEventListener("input", read);
      input.removeEventListener("change", read);
    };
  }, [radiusInputId, hydrated]);

  // The map itself, once: Leaflet loads here, so its code runs only in the browser and only on this page.
  useEffect(() => {
    if (!hydrated) return;
    let cancelled = false;
    let map: LeafletMap | undefined;
    import("leaflet")
      .then((module) => {
        // A CommonJS module: the bundler hands its exports over as `default` (and, depending on it, also as the namespace).
        const L = module.default ?? (module as unknown as typeof module.default);
        if (cancelled || !container.current) return;
        map = L.map(container.current, { scrollWheelZoom: false, worldCopyJump: true });
        L.tileLayer(OSM_TILES.url, { attribution: OSM_TILES.attribution, maxZoom: OSM_TILES.maxZoom }).addTo(map);
        leaflet.current = { L, map };
        map.on("click", (event: LeafletMouseEvent) => {
          const at = event.latlng.wrap();
          choose(at.lat, at.lng, "map");
        });
        const start = pointRef.current;
        if (start) frame(leaflet.current, start, radiusRef.current);
        else if (opensAtRef.current) map.setView([opensAtRef.current.latitude, opensAtRef.current.longitude], 13);
        else map.setView([30, 0], 2);
        setPhase("ready");
      })
      .catch(() => {
        if (!cancelled) setPhase("failed");
      });
    return () => {
      cancelled = true;
      leaflet.current = null;
      map?.remove();
    };
    // `choose` reads refs only; the map is built once per mount.
  }, [hydrated]);

  // The point and its radius on the map.
  useEffect(() => {
    const current = leaflet.current;
    if (!current || phase !== "ready") return;
    const { L, map } = current;
    if (!point) {
      current.marker?.remove();
      current.circle?.remove();
      current.marker = current.circle = undefined;
      return;
    }
    const at = L.latLng(point.latitude, point.longitude);
    if (current.marker) current.marker.setLatLng(at);
    else {
      current.marker = L.circleMarker(at, { ...POINT_STYLE, className: "point-picker-point", interactive: false }).addTo(map);
    }
    if (radiusKm) {
      if (current.circle) current.circle.setLatLng(at).setRadius(radiusKm * 1000);
      else current.circle = L.circle(at, { ...RADIUS_STYLE, radius: radiusKm * 1000, className: "point-picker-radius" }).addTo(map);
      current.marker.bringToFront();
    } else {
      current.circle?.remove();
      current.circle = undefined;
    }
  }, [point, radiusKm, phase]);

  // A new radius shows the whole area around the point.
  useEffect(() => {
    const current = leaflet.current;
    if (!current || phase !== "ready" || !radiusKm || !pointRef.current) return;
    frame(current, pointRef.current, radiusKm);
  }, [radiusKm, phase]);

  function useMyLocation() {
    if (locating === "pending") return;
    if (!("geolocation" in navigator)) {
      setLocating("unavailable");
      return;
    }
    setLocating("pending");
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLocating("idle");
        choose(position.coords.latitude, position.coords.longitude, "location");
      },
      (error) => setLocating(error.code === error.PERMISSION_DENIED ? "denied" : "unavailable"),
      { enableHighAccuracy: true, timeout: 20_000, maximumAge: 60_000 },
    );
  }

  function onMapKey(event: KeyboardEvent<HTMLDivElement>) {
    if ((event.key !== "Enter" && event.key !== " ") || event.target !== container.current || !leaflet.current) return;
    event.preventDefault();
    const centre = leaflet.current.map.getCenter().wrap();
    choose(centre.lat, centre.lng, "map");
  }

  function onTyped(field: "latitude" | "longitude", value: string) {
    const next = { ...typed, [field]: value };
    setTyped(next);
    const latitude = Number.parseFloat(next.latitude.replace(",", "."));
    const longitude = Number.parseFloat(next.longitude.replace(",", "."));
    if (validPoint(latitude, longitude)) choose(latitude, longitude, "typed");
  }

  const latitudeId = `${baseId}-latitude`;
  const longitudeId = `${baseId}-longitude`;
  const hintId = `${baseId}-hint`;
  const allErrors = [...(errors?.latitude ?? []), ...(errors?.longitude ?? [])];

  if (!hydrated) {
    // Without JavaScript (and until it runs): the two numbers the form posts, labelled.
    return (
      <fieldset className="flex flex-col gap-3" data-testid="point-picker" data-mode="static">
        <legend className="mb-1 text-sm font-semibold text-ink">{label}</legend>
        {hint ? <div className="text-sm text-muted">{hint}</div> : null}
        <p id={hintId} className="text-sm text-muted">
          {texts.noScriptHint}
        </p>
        <div className="grid grid-cols-2 gap-3">
          <CoordinateInput id={latitudeId} name={names.latitude} label={texts.latitude} min={-90} max={90} defaultValue={initial?.latitude} errors={errors?.latitude} hintId={hintId} required={required} />
          <CoordinateInput id={longitudeId} name={names.longitude} label={texts.longitude} min={-180} max={180} defaultValue={initial?.longitude} errors={errors?.longitude} hintId={hintId} required={required} />
        </div>
      </fieldset>
    );
  }

  const status = locating === "pending" ? texts.locating : locating === "denied" ? texts.denied : locating === "unavailable" ? texts.unavailable : point ? texts.chosen(formatPlace(point.latitude, point.longitude)) : texts.none;
  const placeholder = phase === "failed" ? texts.failed : phase === "loading" ? texts.loading : null;
  return (
    <fieldset className="flex flex-col gap-3" data-testid="point-picker" data-mode="map">
      <legend className="mb-1 text-sm font-semibold text-ink">{label}</legend>
      {hint ? <div className="text-sm text-muted">{hint}</div> : null}
      <FieldErrorList id={`${baseId}-error`} errors={allErrors.length ? allErrors : undefined} />
      <input type="hidden" name={names.latitude} value={point ? formatCoordinate(point.latitude) : ""} />
      <input type="hidden" name={names.longitude} value={point ? formatCoordinate(point.longitude) : ""} />
      <div
        role="region"
        aria-label={texts.mapLabel}
        aria-describedby={hintId}
        className={`relative isolate h-64 w-full overflow-hidden rounded-lg border sm:h-80 ${allErrors.length ? "border-danger-700" : "border-line"} bg-canvas`}
        data-testid="point-picker-map"
        data-map-state={phase}
        data-point={point ? `${point.latitude},${point.longitude}` : ""}
        data-opens-at={opensAt ? `${opensAt.latitude},${opensAt.longitude}` : ""}
      >
        {/* Leaflet makes this box focusable and pans it with the arrow keys; Enter chooses its centre. */}
        <div ref={container} className="absolute inset-0 cursor-crosshair" onKeyDown={onMapKey} />
        {placeholder ? <p className="absolute inset-0 flex items-center justify-center p-6 text-center text-sm text-muted">{placeholder}</p> : null}
      </div>
      <p id={hintId} className="text-sm text-muted">
        {texts.mapHint}
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <button type="button" className="btn-secondary" onClick={useMyLocation} aria-disabled={locating === "pending" || undefined}>
          {locating === "pending" ? texts.locating : texts.useMyLocation}
        </button>
        <p role="status" className="text-sm text-ink" data-testid="point-picker-status">
          {status}
        </p>
      </div>
      <details className="rounded-lg border border-line px-4 py-2" open={allErrors.length > 0 || undefined}>
        <summary className="min-h-10 cursor-pointer content-center text-sm font-semibold text-ink">{texts.typeInstead}</summary>
        <div className="mt-2 mb-2 grid grid-cols-2 gap-3">
          <CoordinateInput id={latitudeId} label={texts.latitude} min={-90} max={90} value={typed.latitude} onValue={(value) => onTyped("latitude", value)} errors={errors?.latitude} />
          <CoordinateInput id={longitudeId} label={texts.longitude} min={-180} max={180} value={typed.longitude} onValue={(value) => onTyped("longitude", value)} errors={errors?.longitude} />
        </div>
      </details>
    </fieldset>
  );
}

/** Moves the map to the point, showing its whole radius when there is one. */
function frame(current: { L: typeof import("leaflet"); map: LeafletMap }, point: PickedPoint, radiusKm: number | null) {
  const { L, map } = current;
  const at = L.latLng(point.latitude, point.longitude);
  if (radiusKm) map.fitBounds(at.toBounds(radiusKm * 2000), { padding: [16, 16], maxZoom: 16 });
  else map.setView(at, 15);
}

/** One labelled number field: named (posted) without JavaScript, unnamed and controlled beside the map. */
function CoordinateInput({
  id,
  name,
  label,
  min,
  max,
  defaultValue,
  value,
  onValue,
  errors,
  hintId,
  required,
}: {
  id: string;
  name?: string;
  label: string;
  min: number;
  max: number;
  defaultValue?: number;
  value?: string;
  onValue?: (value: string) => void;
  errors?: string[];
  hintId?: string;
  required?: boolean;
}) {
  const described = [hintId, fieldDescriptionIds(id, false, Boolean(errors?.length))].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-semibold text-ink">
        {label}
      </label>
      <FieldErrorList id={`${id}-error`} errors={errors} />
      <input
        id={id}
        name={name}
        type="number"
        inputMode="decimal"
        step="any"
        min={min}
        max={max}
        required={required}
        {...(onValue ? { value: value ?? "", onChange: (event: { target: { value: string } }) => onValue(event.target.value) } : { defaultValue })}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={described}
        className={inputClass}
      />
    </div>
  );
}
