import type { Executor } from "@/db/client";
import type { Tag } from "@/db/schema";
import { insertProduct } from "./queries";

interface CatalogueProduct {
  slug: string;
  name: string;
  description: string;
  priceMinor: number;
  images: string[];
  /** Its colours, each a variant at the product's price pictured by the image at its index. */
  colours?: string[];
  stock: number;
  tagPack: number;
  tagType: Tag["tagType"];
}

/** The shop's starting catalogue (USD, app-served pictures in public/products). */
export const STARTER_CATALOGUE: readonly CatalogueProduct[] = [
  {
    slug: "qr-tag",
    name: "QR tag",
    description: "A weatherproof QR tag with its printed code, for keys, bags, bikes and anything else you don't want to lose. Scans with any phone camera, no app needed.",
    priceMinor: 999,
    images: ["/products/qr-tag.svg", "/products/qr-tag-black.svg"],
    stock: 500,
    tagPack: 1,
    tagType: "GENERAL",
    colours: ["White", "Black"],
  },
  {
    slug: "nfc-tag",
    name: "NFC + QR tag",
    description: "A QR tag with an NFC chip inside: finders can tap it with their phone or scan the code. Epoxy-sealed and waterproof.",
    priceMinor: 1499,
    images: ["/products/nfc-tag.svg"],
    stock: 300,
    tagPack: 1,
    tagType: "GENERAL",
  },
  {
    slug: "pet-collar-tag",
    name: "Pet collar tag",
    description: "A light, chew-resistant tag for a pet's collar with a split ring. Whoever finds your pet sees their profile and can message you at once.",
    priceMinor: 1299,
    images: ["/products/pet-collar-tag.svg", "/products/pet-collar-tag-red.svg", "/products/pet-collar-tag-green.svg"],
    stock: 400,
    tagPack: 1,
    tagType: "PET",
    colours: ["Blue", "Red", "Green"],
  },
  {
    slug: "luggage-tag",
    name: "Luggage tag",
    description: "A sturdy luggage tag with a steel loop and a QR code on both sides, so a lost suitcase finds its way back without showing your address.",
    priceMinor: 1999,
    images: ["/products/luggage-tag.svg", "/products/luggage-tag-black.svg"],
    stock: 200,
    tagPack: 1,
    tagType: "TRAVEL",
    colours: ["Orange", "Black"],
  },
  {
    slug: "tag-5-pack",
    name: "QR tag 5-pack",
    description: "Five QR tags for the whole household: keys, bags, laptop, bike and more. Each gets its own profile.",
    priceMinor: 3999,
    images: ["/products/pack-5.svg"],
    stock: 150,
    tagPack: 5,
    tagType: "GENERAL",
  },
  {
    slug: "tag-10-pack",
    name: "QR tag 10-pack",
    description: "Ten QR tags at our best price per tag, for families, small offices and equipment.",
    priceMinor: 6999,
    images: ["/products/pack-10.svg"],
    stock: 100,
    tagPack: 10,
    tagType: "GENERAL",
  },
];

/**
 * Adds the starter catalogue's products that do not exist yet (by slug): idempotent, and it never
 * changes a product an admin has edited. Returns how many products were added.
 */
export async function seedCatalogue(db: Executor): Promise<number> {
  let added = 0;
  for (const [index, item] of STARTER_CATALOGUE.entries()) {
    const { colours = [], ...product } = item;
    const variants = colours.map((name, order) => ({ name, priceMinor: item.priceMinor, image: item.images[order] ?? null }));
    if (await insertProduct(db, { ...product, currency: "USD", sortOrder: (index + 1) * 10 }, variants, { ifSlugFree: true })) added += 1;
  }
  return added;
}
