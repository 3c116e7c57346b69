import type { Endpoint } from "../endpoint";
import { authEndpoints } from "./auth";
import { devEndpoints } from "./dev";
import { notificationEndpoints } from "./notifications";
import { systemEndpoints } from "./system";
import { profileEndpoints } from "./profiles";
import { tagEndpoints } from "./tags";
import { tagExtraEndpoints } from "./tag-extras";

/** Every endpoint's contract, for the OpenAPI document. Each domain adds its file here. */
export const allEndpoints: Endpoint[] = [...Object.values(systemEndpoints), ...Object.values(authEndpoints), ...Object.values(tagEndpoints), ...Object.values(tagExtraEndpoints), ...Object.values(profileEndpoints), ...Object.values(notificationEndpoints), ...Object.values(devEndpoints)];

export { authEndpoints, devEndpoints, notificationEndpoints, profileEndpoints, systemEndpoints, tagEndpoints, tagExtraEndpoints };
