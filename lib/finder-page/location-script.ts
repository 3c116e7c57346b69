import { createHash } from "node:crypto";

/**
 * "Share my location" on the finder's page without a framework: the container (locationControl in
 * tag-page.ts) carries the endpoint and the words in data attributes, so this text is the same on every
 * page and the Content-Security-Policy allows it by its hash. Without JavaScript the container's own text
 * says to describe the place in the message instead. Nothing is read before the tap; the place goes to
 * POST /api/v1/scan/:encryptedId/location, as the React control on the conversation page sends it.
 */
export const LOCATION_SCRIPT = `(function () {
  var root = document.querySelector("[data-share-location]");
  if (!root) return;
  var words = root.dataset;
  var controls = root.querySelector("[data-controls]");
  var button = controls.querySelector("button");
  var status = controls.querySelector("[role=status]");
  var busy = false;
  root.querySelector("[data-needs-script]").hidden = true;
  controls.hidden = false;
  function show(phase) {
    status.textContent = phase ? words[phase] : "";
    status.className = "text-sm " + (phase === "sent" ? "text-green-900" : "text-muted");
  }
  function done(phase) {
    busy = false;
    button.removeAttribute("aria-disabled");
    button.textContent = words.button;
    if (phase === "sent") button.disabled = true;
    show(phase);
  }
  button.addEventListener("click", function () {
    if (busy || button.disabled) return;
    if (!("geolocation" in navigator)) return show("unavailable");
    busy = true;
    button.setAttribute("aria-disabled", "true");
    button.textContent = words.pending;
    show("");
    navigator.geolocation.getCurrentPosition(
      function (position) {
        var body = JSON.stringify({ latitude: position.coords.latitude, longitude: position.coords.longitude, accuracy: Math.min(100000, Math.round(position.coords.accuracy)) });
        fetch(words.endpoint, { method: "POST", headers: { "Content-Type": "application/json" }, body: body }).then(
          function (response) { done(response.ok ? "sent" : "failed"); },
          function () { done("failed"); }
        );
      },
      function (error) { done(error.code === error.PERMISSION_DENIED ? "denied" : "unavailable"); },
      { enableHighAccuracy: true, timeout: 20000, maximumAge: 60000 }
    );
  });
})();`;

/** The script's CSP source expression. */
export const LOCATION_SCRIPT_HASH = `'sha256-${createHash("sha256").update(LOCATION_SCRIPT).digest("base64")}'`;
