"use server";

import { revalidatePath } from "next/cache";
import { formSuccess } from "@/lib/forms/action-result";
import { formText, type FormState } from "@/lib/forms/form-state";
import { action, rowAction, whenNotFound } from "@/lib/forms/action";
import { alertEndpoints } from "@/lib/http/endpoints/alerts";
import { deleteAlertArea, putAlertArea } from "@/lib/services/alerts";
import { readSignedNumber } from "@/lib/forms/signed-number";

const PATH = "/dashboard/alerts";

const AREA_VALUES = ["latitude", "longitude", "radiusKm", "species"] as const;

/**
 * PUT /alerts/area from "Watch my area for lost pets": the point (the picker's hidden inputs, or the
 * typed numbers without JavaScript), the radius and the species ("" for every kind).
 */
export const saveAlertAreaAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  alertEndpoints.putArea,
  {
    returnTo: PATH,
    read: (formData) => {
      const species = formText(formData, "species").trim();
      return { latitude: readSignedNumber(formData, "latitude"), longitude: readSignedNumber(formData, "longitude"), radiusKm: readSignedNumber(formData, "radiusKm"), species: species === "" ? null : species };
    },
    values: AREA_VALUES,
    invalidMessage: "Check the fields marked below: choose a place on the map (or type its coordinates) and a radius.",
  },
  async ({ ctx, input }) => {
    const area = await putAlertArea(ctx, input);
    revalidatePath(PATH);
    return formSuccess(`Saved: you will hear of pets lost within ${area.radiusKm} km of your area.`, {
      latitude: String(area.latitude),
      longitude: String(area.longitude),
      radiusKm: String(area.radiusKm),
      species: area.species ?? "",
    });
  },
);

/** DELETE /alerts/area: "Stop watching"; already stopped reads as done. */
export const stopWatchingAction = rowAction.for(alertEndpoints.deleteArea, { returnTo: PATH, onError: whenNotFound(`${PATH}?notice=stopped`) }, async ({ ctx }) => {
  await deleteAlertArea(ctx);
  revalidatePath(PATH);
  return `${PATH}?notice=stopped`;
});
