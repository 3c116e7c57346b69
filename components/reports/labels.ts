import type { ReportStatus, ReportType } from "@/lib/services/reports";

export const reportTypeLabels: Record<ReportType, string> = {
  SPAM: "Spam",
  HARASSMENT: "Harassment",
  INAPPROPRIATE: "Inappropriate content",
  SCAM: "Scam or fraud",
  OTHER: "Something else",
};

export const reportStatusLabels: Record<ReportStatus, string> = {
  OPEN: "Received",
  REVIEWING: "Being reviewed",
  RESOLVED: "Resolved",
  DISMISSED: "Closed without action",
};
