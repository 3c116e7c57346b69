import { describe, expect, it } from "vitest";
import { lostPetNearbyText, petDescription, timeAgo } from "@/lib/services/alerts/wording";
import { aboutDistance } from "@/lib/services/alerts/places";

describe("lost-pet notification words", () => {
  const now = new Date("2026-03-12T14:00:00Z");
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it("says how long ago in whole minutes, hours or days", () => {
    expect(timeAgo(ago(30_000), now)).toBe("just now");
    expect(timeAgo(ago(60_000), now)).toBe("1 minute ago");
    expect(timeAgo(ago(20 * 60_000 + 59_000), now)).toBe("20 minutes ago");
    expect(timeAgo(ago(3600_000), now)).toBe("1 hour ago");
    expect(timeAgo(ago(47 * 3600_000), now)).toBe("47 hours ago");
    expect(timeAgo(ago(3 * 86_400_000), now)).toBe("3 days ago");
    expect(timeAgo(new Date(now.getTime() + 60_000), now)).toBe("just now");
  });

  it("describes the pet with what its profile has, and the right article", () => {
    expect(petDescription({ species: "DOG", breed: "Labrador", color: "brown" })).toBe("a brown Labrador (dog)");
    expect(petDescription({ species: "DOG", breed: null, color: "brown" })).toBe("a brown dog");
    expect(petDescription({ species: "CAT", breed: "Siamese", color: null })).toBe("a Siamese (cat)");
    expect(petDescription({ species: "CAT", breed: null, color: "orange" })).toBe("an orange cat");
    expect(petDescription({ species: "OTHER", breed: null, color: null })).toBe("a pet");
  });

  it("reads as the specification's example", () => {
    const text = lostPetNearbyText({ petName: "Bella", species: "DOG", breed: "Labrador", color: "brown", distanceM: 1224, lastSeenAt: ago(20 * 60_000) }, now);
    expect(text).toEqual({ title: "Lost dog near you: Bella", body: "Bella, a brown Labrador (dog), was last seen about 1.2 km from your home, 20 minutes ago." });
    const unnamed = lostPetNearbyText({ petName: null, species: "RABBIT", breed: null, color: "white", distanceM: 300, lastSeenAt: ago(2 * 3600_000) }, now);
    expect(unnamed).toEqual({ title: "Lost rabbit near you", body: "A white rabbit was last seen about 300 m from your home, 2 hours ago." });
    expect(aboutDistance(1224)).toBe("about 1.2 km");
  });
});
