import { z } from "zod";
import { clearStolenInput, reportStolenInput, reportStolenResultSchema, stolenClearedSchema, vinCheckSchema } from "@/lib/services/vehicles";
import { defineEndpoint } from "../endpoint";
import { uuidParam } from "../params";

const vehicles = ["Vehicles"];

/** Vehicle tags: stolen reports and VIN checks. */
export const vehicleEndpoints = {
  reportStolen: defineEndpoint({
    operationId: "reportVehicleStolen",
    method: "POST",
    path: "/api/v1/vehicles/{tagId}/report-stolen",
    summary: "Report a vehicle stolen",
    description:
      "VEHICLE tags only (another type: 422). `policeReportRef` (optional, at most 100 characters) is stored with the report's date and never shown publicly. Scans then show a stolen alert; the public VIN check shows the vehicle as stolen only while a police reference is on file, and then says only that one is. ACTIVE or LOST → STOLEN; a STOLEN tag with no reference on file takes one (the report's date becomes now); from any other status 400 INVALID_TRANSITION.",
    tags: vehicles,
    auth: "user",
    params: z.object({ tagId: uuidParam() }),
    body: reportStolenInput,
    response: reportStolenResultSchema,
    errors: ["INVALID_TRANSITION", "UNPROCESSABLE_ENTITY"],
  }),
  verifyVin: defineEndpoint({
    operationId: "verifyVin",
    method: "GET",
    path: "/api/v1/vehicles/verify/{vin}",
    summary: "Check whether a VIN is registered and reported stolen",
    description:
      "Public. Spaces and hyphens in the VIN are ignored and letters compared upper case; a malformed VIN (not 17 letters and digits, or containing I, O or Q) is 400 VALIDATION_ERROR. `stolen` is true only for a stolen report made by the owner of the vehicle tag registered with the VIN with a police report reference; the message says who reports it and when, and that a reference is on file, never the reference or the owner, and sends the buyer to the police and the seller's documents. 10 requests per minute per IP.",
    tags: vehicles,
    auth: "public",
    rateLimit: ["vinVerify"],
    params: z.object({ vin: z.string().meta({ description: "17-character VIN", example: "1HGCM82633A004352" }) }),
    response: vinCheckSchema,
    errors: ["VALIDATION_ERROR"],
  }),
  adminClearStolen: defineEndpoint({
    operationId: "clearStolenReport",
    method: "POST",
    path: "/api/v1/admin/tags/{tagId}/clear-stolen",
    summary: "Clear a stolen report (admin)",
    description:
      "Takes down a stolen report that should not stand (someone else's VIN reported stolen): the tag goes STOLEN → ACTIVE, its police reference, report date and stolen message are removed, so scans drop the alert and the VIN check no longer reports it stolen. Written to the audit log; the owner is notified. A tag that is not STOLEN is 409; an unknown or unowned tag 404.",
    tags: ["Admin"],
    auth: "admin",
    params: z.object({ tagId: uuidParam() }),
    body: clearStolenInput,
    response: stolenClearedSchema,
    errors: ["CONFLICT"],
  }),
};
