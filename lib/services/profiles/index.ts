export { getProfile, updateProfile, profileOf, listPhotos, photoUrl, saveGeneralProfile } from "./general";
export { putPetProfile, putVehicleProfile, putDeviceProfile, putTravelProfile, readTypedProfile } from "./typed";
export { addPhoto, deletePhoto, setPrimaryPhoto, getStoredPhoto, MAX_PHOTOS_PER_TAG, type StoredPhoto } from "./photos";
export { processPhoto, sniffImageFormat, MAX_PHOTO_BYTES } from "./image";
export * from "./schemas";

