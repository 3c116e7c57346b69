/**
 * The alerts domain as routes, server actions, pages, jobs and other domains use it (docs/alerts.md):
 * watch areas, raising a lost-pet alert and its fan-out to the watchers nearby, the public lost page's
 * data, contacting the owner or reporting a sighting from it, and the watcher's list. It sits at the top
 * with `finder`: it reads tags, profiles, rewards, the relay and messages, and notifies through notifications.
 */
export { deleteAlertArea, findAlertArea, getAlertArea, lostAlertMapOpening, putAlertArea } from "./areas";
export { listTagAlerts, raiseLostAlert } from "./raise";
export { FAN_OUT_BATCH_SIZE, notifyAlertRecipients } from "./fan-out";
export { ALERT_CLOSED, contactOwnerFromAlert, getPublicLostAlert, reportSighting } from "./public";
export { listNearbyAlerts } from "./nearby";
export { exportAlertArea, exportLostPetAlerts } from "./export";
export { aboutDistance, publicLastSeenPoint, storedAreaPoint } from "./places";
export { PET_SPECIES, type PetSpecies, petSpeciesSchema, speciesOf } from "./species";
export { lostPetNearbyText, petDescription, speciesWord, timeAgo } from "./wording";
export {
  type AlertArea,
  type AlertAreaInput,
  alertAreaInput,
  alertAreaSchema,
  type AlertContactInput,
  alertContactInput,
  alertIdParams,
  ALERTS_PER_TAG_PER_DAY,
  type AlertStatus,
  alertStatusSchema,
  LAST_SEEN_MAX_AGE_DAYS,
  type LostAlertCreated,
  lostAlertCreatedSchema,
  type LostAlertInput,
  lostAlertInput,
  type NearbyAlert,
  nearbyAlertSchema,
  type PublicLostAlert,
  publicLostAlertSchema,
  SIGHTING_DEFAULT_MESSAGE,
  type SightingInput,
  sightingInput,
  type TagLostAlert,
  type TagLostAlerts,
  tagLostAlertSchema,
  tagLostAlertsSchema,
} from "./schemas";
