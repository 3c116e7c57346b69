/** The product pictures shipped in public/products, offered by the admin's product editor. */
export const shippedProductPictures = [
  "/products/qr-tag.svg",
  "/products/qr-tag-black.svg",
  "/products/nfc-tag.svg",
  "/products/pet-collar-tag.svg",
  "/products/pet-collar-tag-green.svg",
  "/products/pet-collar-tag-red.svg",
  "/products/luggage-tag.svg",
  "/products/luggage-tag-black.svg",
  "/products/pack-5.svg",
  "/products/pack-10.svg",
] as const;
