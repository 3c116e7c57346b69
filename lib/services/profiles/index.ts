/**
 * The profiles domain as routes, server actions and pages use it: its ctx-taking verbs, their records and
 * request schemas. Code inside lib/services imports the files themselves.
 */
export { getProfile, updateProfile, saveGeneralProfile } from "./general";
export { putPetProfile, putVehicleProfile, putDeviceProfile, putTravelProfile } from "./typed";
export { saveTagDetails, type TypedDetails } from "./details";
export { addPhoto, deletePhoto, setPrimaryPhoto, getStoredPhoto, thumbnailsOf, MAX_PHOTOS_PER_TAG, type StoredPhoto } from "./photos";
export { processPhoto, sniffImageFormat, MAX_PHOTO_BYTES } from "./image";
export { listPhotos, readTypedProfile } from "./queries";
export * from "./schemas";
