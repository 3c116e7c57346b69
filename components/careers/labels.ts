import type { PositionType } from "@/lib/services/content";

export const positionTypeLabels: Record<PositionType, string> = {
  FULL_TIME: "Full-time",
  PART_TIME: "Part-time",
  CONTRACT: "Contract",
  INTERNSHIP: "Internship",
};
