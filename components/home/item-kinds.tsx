import { BagIcon, BikeIcon, CarIcon, PawIcon, PhoneIcon } from "@/components/icons";

const items = [
  {
    icon: PawIcon,
    title: "Pets",
    text: "A tag on the collar shows your pet's name and a message like “I'm friendly, please call my family”, so a neighbour can help in minutes.",
  },
  {
    icon: BagIcon,
    title: "Bags and luggage",
    text: "Airport staff, taxi drivers and fellow travellers can reach you without your home address printed on a label.",
  },
  {
    icon: BikeIcon,
    title: "Bikes",
    text: "Mark a bike lost and its page says so immediately; anyone who spots it can tell you where it is.",
  },
  {
    icon: CarIcon,
    title: "Cars and keys",
    text: "Put a tag on the key ring or behind the windscreen, so whoever finds your keys or needs to reach the driver can do it discreetly.",
  },
  {
    icon: PhoneIcon,
    title: "Phones and laptops",
    text: "A sticker on the back works even when the screen is locked or the battery is flat.",
  },
] as const;

/** The kinds of things a tag goes on. */
export function ItemKinds() {
  return (
    <section aria-labelledby="items-heading" className="bg-canvas py-14 sm:py-20">
      <div className="container-page">
        <h2 id="items-heading" className="text-3xl font-bold tracking-tight text-ink">
          For everything you carry
        </h2>
        <p className="mt-3 max-w-2xl text-muted">
          One account for all your tags. Each tag has its own page, photo and message, and its own lost mode.
        </p>
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {items.map((item) => (
            <li key={item.title} className="flex gap-4 rounded-xl border border-line bg-white p-6">
              <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                <item.icon className="h-7 w-7" />
              </span>
              <div>
                <h3 className="text-lg font-semibold text-ink">{item.title}</h3>
                <p className="mt-1 text-muted">{item.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
