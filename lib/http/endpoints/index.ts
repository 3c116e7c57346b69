import type { Endpoint } from "../endpoint";
import { accountEndpoints } from "./account";
import { adminPlatformEndpoints } from "./admin-platform";
import { alertEndpoints } from "./alerts";
import { apiKeyEndpoints } from "./api-keys";
import { authEndpoints } from "./auth";
import { blockEndpoints } from "./blocks";
import { blogEndpoints, careerEndpoints } from "./content";
import { contactEndpoints } from "./contact";
import { devEndpoints } from "./dev";
import { emergencyEndpoints } from "./emergency";
import { finderThreadEndpoints } from "./finder-threads";
import { insuranceEndpoints } from "./insurance";
import { messageEndpoints } from "./messages";
import { notificationEndpoints } from "./notifications";
import { orderEndpoints, productEndpoints } from "./orders";
import { organisationEndpoints } from "./organisations";
import { paymentEndpoints } from "./payments";
import { profileEndpoints } from "./profiles";
import { relayEndpoints } from "./relay";
import { telephonyEndpoints } from "./telephony";
import { reportEndpoints } from "./reports";
import { rewardEndpoints } from "./rewards";
import { scanEndpoints } from "./scans";
import { sessionEndpoints } from "./sessions";
import { subscriptionEndpoints } from "./subscriptions";
import { systemEndpoints } from "./system";
import { tagLabelEndpoints } from "./tag-labels";
import { tagScanEndpoints } from "./tag-scans";
import { tagEndpoints } from "./tags";
import { transferEndpoints } from "./transfers";
import { vehicleEndpoints } from "./vehicles";

/** Every endpoint's contract, one group per resource, for the OpenAPI document and the hostile-input sweep. */
const groups = [
  systemEndpoints,
  authEndpoints,
  accountEndpoints,
  apiKeyEndpoints,
  sessionEndpoints,
  tagEndpoints,
  transferEndpoints,
  relayEndpoints,
  insuranceEndpoints,
  tagScanEndpoints,
  tagLabelEndpoints,
  vehicleEndpoints,
  profileEndpoints,
  scanEndpoints,
  finderThreadEndpoints,
  messageEndpoints,
  notificationEndpoints,
  emergencyEndpoints,
  reportEndpoints,
  rewardEndpoints,
  alertEndpoints,
  productEndpoints,
  orderEndpoints,
  subscriptionEndpoints,
  blockEndpoints,
  paymentEndpoints,
  telephonyEndpoints,
  blogEndpoints,
  careerEndpoints,
  devEndpoints,
  contactEndpoints,
  adminPlatformEndpoints,
  organisationEndpoints,
];

export const allEndpoints: Endpoint[] = groups.flatMap((group) => Object.values(group) as Endpoint[]);

export {
  accountEndpoints,
  adminPlatformEndpoints,
  alertEndpoints,
  apiKeyEndpoints,
  authEndpoints,
  blockEndpoints,
  blogEndpoints,
  careerEndpoints,
  contactEndpoints,
  devEndpoints,
  emergencyEndpoints,
  finderThreadEndpoints,
  insuranceEndpoints,
  messageEndpoints,
  notificationEndpoints,
  orderEndpoints,
  organisationEndpoints,
  productEndpoints,
  paymentEndpoints,
  profileEndpoints,
  relayEndpoints,
  reportEndpoints,
  rewardEndpoints,
  scanEndpoints,
  sessionEndpoints,
  subscriptionEndpoints,
  systemEndpoints,
  tagEndpoints,
  tagLabelEndpoints,
  tagScanEndpoints,
  telephonyEndpoints,
  transferEndpoints,
  vehicleEndpoints,
};
