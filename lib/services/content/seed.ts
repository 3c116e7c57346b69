import { inArray } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { CreatePositionInput } from "./schemas";

/** The byline of the seeded posts (no admin account wrote them). */
const SEED_AUTHOR = "Tag Service team";
const DAY_MS = 24 * 60 * 60 * 1000;

interface DemoPost {
  slug: string;
  title: string;
  excerpt: string;
  coverImage: string;
  tags: string[];
  /** Days before the seed ran; null for the draft. */
  daysAgo: number | null;
  content: string;
}

/** A demo position is what an admin would send to POST /careers. */
type DemoPosition = CreatePositionInput;

/** The blog's starting posts (cover pictures in public/blog). Re-seeding adds only the slugs missing. */
export const DEMO_POSTS: readonly DemoPost[] = [
  {
    slug: "what-to-write-on-your-pets-tag-page",
    title: "What to write on your pet's tag page",
    excerpt: "The few lines a finder reads first decide whether your dog is home tonight. Here is what belongs on the page, and what never should.",
    coverImage: "/blog/pet-tag-page.svg",
    tags: ["pets", "profiles", "guides"],
    daysAgo: 3,
    content: `Whoever finds your dog is standing on a pavement with a phone in one hand and a lead in the other. They will read two or three lines. Make them count.

## Start with what the finder needs now

- **Is the pet friendly?** "Biscuit is friendly but shy, let him sniff your hand first" tells the finder how to approach.
- **Does it need anything urgently?** Medication, a diet, a heart condition: one short sentence.
- **How to reach you.** You don't need to show a phone number: the *Message the owner* button reaches you anonymously, on every device you are signed in on.

## Keep out of the page

- Your home address. The finder doesn't need it, and the tag is readable by anyone.
- Your full name. "Dana" is enough.
- Anything that answers a bank's security question (your pet's name may already be one; consider whether the tag is the place for it).

## Use the pet profile

The pet profile has fields for species, breed, colour, microchip number and your vet. A **PRIVATE** profile hides them from finders while keeping the contact button, so you decide what strangers see. Read more in [how our finders stay anonymous](/blog/how-our-finders-stay-anonymous).

## Update it when it matters

When your pet goes missing, switch the tag to **Lost**: the page shows your lost message at the top and every scan notifies you at once. See [lost mode, explained](/blog/lost-mode-explained).
`,
  },
  {
    slug: "how-our-finders-stay-anonymous",
    title: "How our finders stay anonymous",
    excerpt: "A finder can message you without an account, an e-mail address or a phone number, and you never see where they live. Here is how that works.",
    coverImage: "/blog/anonymous-finders.svg",
    tags: ["privacy", "finders", "security"],
    daysAgo: 10,
    content: `People return things when it is easy and safe to do so. That is why a finder never needs an account to contact you, and why neither of you learns more about the other than you choose to share.

## What a finder sees

1. The public profile you wrote (or, for a **PRIVATE** profile, only the item's status and a contact button).
2. A form: a first name if they like, and a message.
3. A private link to the conversation. The link is the only key to it: we store a hash of it, never the link itself.

## What you see

- The finder's first name, if they gave one, and their messages.
- The city where the tag was scanned, when the finder's connection reveals it. Never an IP address: we keep a keyed hash of it, only to spot abuse.
- A precise location only if the finder chose to share it.

## What neither of you sees

- Your e-mail address or phone number, unless you put them on the profile yourself.
- The finder's e-mail address. If they leave one, it is used to tell them you replied, and that is all.

## When something goes wrong

You can close or block a conversation at any time, and report abuse from the message itself. Our moderators read every report within 24 hours. The details are in our [API documentation](/docs) for the curious, and on the [Electronic Frontier Foundation's guide to privacy](https://ssd.eff.org/) for everyone.
`,
  },
  {
    slug: "lost-mode-explained",
    title: "Lost mode, explained",
    excerpt: "What changes when you mark a tag as lost: the finder's page, your notifications, rewards and what happens once your things are back.",
    coverImage: "/blog/lost-mode.svg",
    tags: ["lost mode", "notifications", "rewards"],
    daysAgo: 17,
    content: `Marking a tag as **Lost** is one tap on the tag's page in your dashboard. Here is everything it changes.

## On the finder's page

- Your lost message appears at the top, above everything else: "Left on the train, please get in touch."
- A reward you offer is shown with its amount, so the finder knows it is there.
- The contact button stays where it was; nothing else about you is revealed.

## In your pocket

- **Every scan notifies you**, in the app and by push, with the city where it happened.
- Messages from finders arrive in your inbox and, if you allow it, by e-mail.
- A finder can share a precise location with one tap; you see it on the scan list.

## When it is back

1. Switch the tag to **Found**, or confirm the return from the reward page if you offered one.
2. A confirmed return issues a public **return certificate** the finder can keep.
3. Switch the tag back to **Active** when you are ready.

## Stolen is different

If you believe the item was stolen, mark it **Stolen** instead: scans then show a stolen alert, and for vehicles anyone can check the VIN. Call the police first; see [Europol's advice on reporting crime](https://www.europol.europa.eu/report-a-crime).
`,
  },
  {
    slug: "nfc-or-qr",
    title: "NFC or QR? Choosing the right tag",
    excerpt: "Both open the same page. The difference is how a finder's phone reads them, where they survive, and what they cost.",
    coverImage: "/blog/nfc-or-qr.svg",
    tags: ["nfc", "qr", "shop"],
    daysAgo: 24,
    content: `Every tag we sell opens the same page when it is read: your item's public profile. What differs is *how* it is read.

## QR codes

- Read by **any phone camera**, no app needed.
- Work from a distance of a metre or two, so a finder doesn't need to touch a nervous dog.
- Need to be visible and reasonably clean: a scratched code may not scan.

## NFC chips

- Read by **tapping** the tag with a phone (most phones made since 2018).
- Work through dirt, paint and a thin case; nothing needs to be visible.
- Need the phone to be within a few centimetres.

## Our advice

| Item | Best choice |
| --- | --- |
| Pet collar | QR, on a tag that hangs freely |
| Keys, bag, suitcase | NFC + QR: both ways in one tag |
| Laptop, phone | NFC sticker inside the case, plus a QR label outside |

Every tag also carries a printed code, so a finder can type it at [/found](/found) if neither works. Browse the [shop](/shop) for the full range.
`,
  },
  {
    slug: "five-minute-setup",
    title: "Set up a new tag in five minutes",
    excerpt: "From unboxing to a working finder's page: claim the code, fill in the profile, and test it with your own phone.",
    coverImage: "/blog/five-minute-setup.svg",
    tags: ["guides", "setup"],
    daysAgo: 31,
    content: `You have a tag in your hand. Five minutes from now it can bring your things home.

## 1. Claim it

Sign in, open **Tags → Activate a tag** and type the printed code (the ten characters under the QR code, like \`7K3QX-M9P2T\`). Hyphens and case don't matter.

## 2. Fill in the profile

- Give the item a name finders understand: "Blue backpack", not "Bag 2".
- Choose the type (pet, vehicle, device, travel or general) and fill in its fields.
- Decide whether the profile is **PUBLIC** or **PRIVATE**.

The tag becomes **Active** as soon as the profile is complete.

## 3. Test it

Scan the tag with your own phone. You will see exactly what a finder sees, and the scan appears on your dashboard within seconds.

## 4. Add an emergency card (optional)

Your emergency profile lets first responders read your blood type, allergies and contacts from any of your tags. Read the [NHS guidance on medical ID](https://www.nhs.uk/) before deciding what to include.
`,
  },
  {
    slug: "family-sharing-preview",
    title: "Coming soon: sharing tags with your family",
    excerpt: "A first look at shared tags: several owners, one inbox, and who gets notified when the dog goes walkabout.",
    coverImage: "/blog/family-sharing.svg",
    tags: ["roadmap"],
    daysAgo: null,
    content: `This post is a draft: the feature is still being built.

## What we are building

- Invite a family member to a tag; both of you get its scans and messages.
- Choose per person who is notified at night.

## What we need from you

- Tell us how your household shares pets and cars: [write to us](mailto:hello@tagservice.example).
`,
  },
];

/** The careers page's starting positions: three open, one closed. Re-seeding adds only the titles missing. */
export const DEMO_POSITIONS: readonly DemoPosition[] = [
  {
    title: "Senior Full-stack Engineer",
    department: "Engineering",
    location: "Remote (Europe)",
    type: "FULL_TIME",
    description: `You will build the pages a finder sees on a street corner and the dashboard an owner opens in a panic. Our stack is **Next.js, TypeScript and PostgreSQL**, with one service layer behind the API, the pages and the jobs.

## What you will do

- Ship features end to end, from the database migration to the Playwright test.
- Keep the finder's page fast on a slow phone in a foreign country.
- Review code, and write the kind of documentation you wish you had found.`,
    requirements: ["5+ years building web applications", "Strong TypeScript and SQL", "Experience with React server rendering", "Care for accessibility and privacy"],
    benefits: ["Fully remote within European time zones", "Four-day week option", "Learning budget of €1,500 a year", "A free tag for everything you own"],
    applyUrl: "mailto:jobs@tagservice.example?subject=Senior%20Full-stack%20Engineer",
    open: true,
  },
  {
    title: "Customer Support Lead",
    department: "Customer Experience",
    location: "Lisbon or remote",
    type: "FULL_TIME",
    description: `Our users write to us on the worst day of their week: their dog is missing, their suitcase went to Singapore. You will lead the small team that answers them, and turn what you hear into changes to the product.

## What you will do

- Answer and triage messages, and set up the tools that help the team do the same.
- Handle abuse reports with our moderation tools, within our 24-hour promise.
- Write the help pages people actually read.`,
    requirements: ["3+ years in customer support, one of them leading", "Excellent written English; Portuguese or Spanish a plus", "Calm under pressure"],
    benefits: ["Hybrid office in Lisbon", "Private health insurance", "25 days of holiday plus public holidays"],
    applyUrl: "https://jobs.tagservice.example/customer-support-lead",
    open: true,
  },
  {
    title: "Product Designer",
    department: "Design",
    location: "Remote (worldwide)",
    type: "CONTRACT",
    description: `Six months to redesign how owners set up a tag, from the box to the first test scan. You will work with one engineer and our support lead, and test with real owners and finders.

## What you will do

- Interview owners, and watch finders use the scan page.
- Design the setup flow for phones first, in accessible, plain language.
- Leave us with components we can keep building on.`,
    requirements: ["A portfolio of shipped mobile-first work", "Experience with usability testing", "Working knowledge of WCAG 2.1 AA"],
    benefits: ["Flexible hours", "Paid in your currency", "A possible permanent role afterwards"],
    applyUrl: "https://jobs.tagservice.example/product-designer",
    open: true,
  },
  {
    title: "Warehouse Assistant (seasonal)",
    department: "Operations",
    location: "Porto",
    type: "PART_TIME",
    description: "Packing tag orders for the holiday season. This position is filled.",
    requirements: ["Available November to January"],
    benefits: ["Staff discount"],
    applyUrl: "mailto:jobs@tagservice.example",
    open: false,
  },
];

/**
 * The demo blog and careers content, idempotently: posts by slug (the unique index), positions by
 * title. Existing rows are never changed, so an admin's edits survive a re-seed. Returns how many rows
 * were added.
 */
export async function seedContent(db: Executor, now = new Date()): Promise<number> {
  const posts = await db
    .insert(schema.blogPosts)
    .values(
      DEMO_POSTS.map((post) => ({
        slug: post.slug,
        title: post.title,
        excerpt: post.excerpt,
        content: post.content,
        coverImage: post.coverImage,
        tags: post.tags,
        author: SEED_AUTHOR,
        published: post.daysAgo !== null,
        publishedAt: post.daysAgo === null ? null : new Date(now.getTime() - post.daysAgo * DAY_MS),
      })),
    )
    .onConflictDoNothing({ target: schema.blogPosts.slug })
    .returning({ id: schema.blogPosts.id });

  const existing = new Set(
    (await db.select({ title: schema.careerPositions.title }).from(schema.careerPositions).where(inArray(schema.careerPositions.title, DEMO_POSITIONS.map((position) => position.title)))).map(
      (row) => row.title,
    ),
  );
  const missing = DEMO_POSITIONS.filter((position) => !existing.has(position.title));
  if (missing.length) {
    await db.insert(schema.careerPositions).values(
      missing.map((position, index) => ({
        ...position,
        publishedAt: position.open ? new Date(now.getTime() - (index + 1) * 7 * DAY_MS) : null,
      })),
    );
  }
  return posts.length + missing.length;
}
