/**
 * The emergency domain as routes, server actions, pages and other domains use it: the owner's profile and
 * contacts, the public read through a tag (logged, owner notified), the access log and the ICE card's QR code.
 */
export { addEmergencyContact, deleteEmergencyContact, updateEmergencyContact } from "./contacts";
export { emergencyCardQr, emergencyCardTags, type EmergencyCardTag } from "./ice-card";
export { getEmergencyProfile, isShownToResponders, putEmergencyProfile } from "./profile";
export { hasEmergencyProfile } from "./queries";
export { emergencyPageUrl, listEmergencyAccesses, readEmergencyProfileByTag } from "./public-view";
export * from "./schemas";
export { listTagsShowingEmergency, type EmergencyTag } from "./tags";
export { exportEmergency } from "./export";
