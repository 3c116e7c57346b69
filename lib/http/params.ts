import { z } from "zod";

/** A UUID path segment; route() answers a malformed one with 404, as for a missing resource. */
export const uuidParam = () => z.uuid().meta({ description: "UUID", example: "5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11" });

export const idParams = z.object({ id: uuidParam() });
