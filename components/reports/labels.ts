import type { QueueReportType, ReportStatus } from "@/lib/services/reports";

export const reportTypeLabels: Record<QueueReportType, string> = {
  SPAM: "Spam",
  HARASSMENT: "Harassment",
  INAPPROPRIATE: "Inappropriate content",
  SCAM: "Scam or fraud",
  OTHER: "Something else",
  VIN_CONFLICT: "VIN claimed twice",
};

export const reportStatusLabels: Record<ReportStatus, string> = {
  OPEN: "Received",
  REVIEWING: "Being reviewed",
  RESOLVED: "Resolved",
  DISMISSED: "Closed without action",
};
