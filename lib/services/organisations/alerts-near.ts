import type { ServiceContext } from "@/lib/services/context";
import type { Page, PageRequest } from "@/lib/services/paging";
import { requireVerifiedOrganisation } from "./organisations";
import { openAlertsNear, toOrganisationAlert } from "./queries";
import type { OrganisationAlert } from "./schemas";

/**
 * GET /organisations/alerts: the open lost-pet alerts within the organisation's watch radius, newest
 * first, each with the pet's card, the last-seen place on the public ~500 m grid and how far it is.
 * Verified organisations only (403 otherwise).
 */
export async function listOrganisationAlerts(ctx: ServiceContext, page: PageRequest): Promise<Page<OrganisationAlert>> {
  const organisation = await requireVerifiedOrganisation(ctx);
  return openAlertsNear(
    ctx.db,
    { latitude: organisation.latitude, longitude: organisation.longitude, metres: organisation.watchRadiusKm * 1000, scope: organisation.id },
    page,
    toOrganisationAlert,
  );
}
