/**
 * The organisations domain as routes, server actions and pages use it: shelters, vets and police stations
 * (one per account, verified by an admin), their list of open lost-pet alerts nearby, and their found-animal
 * reports, matched against open alerts with FOUND_PET_MATCH for the owners (docs/organisations.md).
 */
export { type AdminOrganisationQuery, listOrganisationsForAdmin, setOrganisationVerified } from "./admin";
export { listOrganisationAlerts } from "./alerts-near";
export { exportFoundReports, exportOrganisation } from "./export";
export { fileFoundReport, foundReportPhotoPath, getFoundReport, getFoundReportPhoto, listMyFoundReports } from "./found-reports";
export { fieldMatches, significantWords } from "./matching";
export { applyForOrganisation, findMyOrganisation, getMyOrganisation, NO_ORGANISATION, NOT_VERIFIED, updateMyOrganisation } from "./organisations";
export * from "./schemas";
