export { recordAudit, auditSnapshot, type AuditInput } from "./record";
