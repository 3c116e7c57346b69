import { z } from "zod";
import { reportStolenResultSchema } from "@/lib/services/vehicles/report-stolen";
import { vinCheckSchema } from "@/lib/services/vehicles/verify-vin";
import { defineEndpoint } from "../endpoint";
import { uuidParam } from "../params";

const vehicles = ["Vehicles"];

/** Vehicle tags: stolen reports and VIN checks. */
export const vehicleEndpoints = {
  reportStolen: defineEndpoint({
    method: "POST",
    path: "/api/v1/vehicles/{tagId}/report-stolen",
    summary: "Report a vehicle stolen",
    description:
      "VEHICLE tags only (another type: 422). ACTIVE or LOST → STOLEN; from any other status 400 INVALID_TRANSITION. Scans then show a stolen alert.",
    tags: vehicles,
    auth: "required",
    params: z.object({ tagId: uuidParam() }),
    body: z.object({ policeReportRef: z.string().trim().min(1).max(100).nullable().optional() }),
    response: reportStolenResultSchema,
    errors: ["INVALID_TRANSITION", "UNPROCESSABLE_ENTITY"],
  }),
  verifyVin: defineEndpoint({
    method: "GET",
    path: "/api/v1/vehicles/verify/{vin}",
    summary: "Check whether a VIN is registered and reported stolen",
    description: "Public. A malformed VIN (not 17 letters and digits, or containing I, O or Q) is 400. 10 requests per minute per IP.",
    tags: vehicles,
    auth: "none",
    rateLimit: ["vinVerify"],
    params: z.object({ vin: z.string().meta({ description: "17-character VIN", example: "1HGCM82633A004352" }) }),
    response: vinCheckSchema,
  }),
};
