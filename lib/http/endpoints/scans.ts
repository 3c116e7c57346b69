import { encryptedIdParams, ownerSideEffectNote, publicScanViewSchema, sharedLocationSchema, shareLocationInput } from "@/lib/services/scans";
import { defineEndpoint } from "../endpoint";

const scans = ["Scans"];

/** The public side of a tag: what a scan shows, and a finder sharing their location. */
export const scanEndpoints = {
  scan: defineEndpoint({
    operationId: "getScanView",
    method: "GET",
    path: "/api/v1/scan/{encryptedId}",
    summary: "Scan a tag: its public profile",
    description: [
      ownerSideEffectNote("every call is recorded in the owner's scan list, and a REAL scan notifies the owner (TAG_SCANNED)"),
      "Public; records the scan and answers what a finder may see. Never the owner's e-mail, phone or account details.",
      "A PRIVATE profile hides itemName, description, ownerName, photos and details. An unowned tag answers status PENDING_SETUP with contactEnabled false; a DEACTIVATED tag shows nothing of the profile either (as PRIVATE), with contactEnabled and emergencyAvailable false. A STOLEN tag's lostMessage is a stolen alert.",
      "Every scan is kept in the owner's scan list with its class; only a REAL scan notifies the owner (TAG_SCANNED), at most once per client IP and tag per 10 minutes. Not REAL: the owner's own signed-in credential (OWNER), HEAD requests and browser prefetches (`Sec-Purpose: prefetch`, `Purpose: prefetch`: PREFETCH), crawlers, link previews and e-mail link scanners (BOT; generic HTTP clients such as curl or an app's HTTP library are not bots), and the same client again within 10 minutes of its REAL scan (REPEAT).",
      "HEAD answers like GET without a body and is recorded as PREFETCH.",
      "Clone detection: when the tag's previous located scan within 5 minutes was at least 100 km away (an implied speed over 1000 km/h), the scan is stored as suspicious and the owner is notified (TAG_CLONE_DETECTED, at most once per tag per 10 minutes); the scan is still answered as any scan (200, the public view). Location comes only from the geo headers of the proxy named by GEO_HEADERS (none by default), behind a trusted proxy; an invalid value is ignored.",
      "30 requests per minute per IP.",
    ].join("\n\n"),
    tags: scans,
    auth: "optional",
    rateLimit: ["publicScan"],
    params: encryptedIdParams,
    response: publicScanViewSchema,
    errors: ["UNAUTHORIZED"],
  }),
  shareLocation: defineEndpoint({
    operationId: "shareScanLocation",
    method: "POST",
    path: "/api/v1/scan/{encryptedId}/location",
    summary: "Share a finder's location with the owner",
    description:
      ownerSideEffectNote("the owner is notified of the shared position (FINDER_LOCATION_SHARED) and sees it in the tag's scan list") +
      "\n\nPublic: a finder shares a precise position, with consent. The owner is notified (FINDER_LOCATION_SHARED, at most once per client IP and tag per 10 minutes) and sees it in the tag's scan list (locationShared true) with a map link. Not counted as a scan. An unowned or DEACTIVATED tag answers 403 FORBIDDEN; an unknown one 404. Counts against the public scan limit (30 per minute per IP).",
    tags: scans,
    auth: "optional",
    rateLimit: ["publicScan"],
    params: encryptedIdParams,
    body: shareLocationInput,
    response: sharedLocationSchema,
    successStatus: 201,
    errors: ["UNAUTHORIZED", "FORBIDDEN"],
  }),
};
