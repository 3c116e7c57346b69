/**
 * The profiles domain as routes, server actions, pages and other domains use it: its ctx-taking verbs,
 * their records and request schemas, and the reads the finder's view shares.
 */
export { getProfile, updateProfile, saveGeneralProfile } from "./general";
export { putPetProfile, putVehicleProfile, putDeviceProfile, putTravelProfile } from "./typed";
export { saveTagDetails, type TypedDetails } from "./details";
export { addPhoto, deletePhoto, setPrimaryPhoto, getStoredPhoto, thumbnailsOf, MAX_PHOTOS_PER_TAG, type StoredPhoto } from "./photos";
export { processPhoto, sniffImageFormat, MAX_PHOTO_BYTES } from "./image";
export { listPhotos, photoUrl, readTypedProfile } from "./queries";
export * from "./schemas";
