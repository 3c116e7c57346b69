export { recordAudit, recordSystemAudit, auditSnapshot, type AuditInput } from "./record";
