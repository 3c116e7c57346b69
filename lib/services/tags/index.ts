/**
 * The tags domain as routes, server actions, pages and other domains use it: its ctx-taking verbs, their
 * records and request schemas.
 */
export { formatTagCode, foundAddress, scanUrl } from "./codes";
export { deleteInsurance, getInsurance, type InsuranceRecord, insuranceRecordSchema, saveInsurance } from "./insurance";
export { activateTag, bulkActivateTags, countTagsByStatus, getTag, listTags, type MintedTag, mintTags, releaseTag, type TagType, updateTag } from "./inventory";
export { labelPixels, labelSizes, papers, sheetGrid, type LabelFormat, type LabelSize, type Paper } from "./label-render";
export { type LabelFile, tagLabel, tagLabelSheet } from "./labels";
export { labelWords } from "./label-words";
export { findEncryptedIdByCode } from "./lookup";
export { tagQrCode } from "./qr";
export { type TagRecord, tagRecordSchema, tagStatusSchema, tagTypeSchema, toTagRecord, visibilitySchema } from "./records";
export { ownedTag } from "./access";
export { listTagScans, rolledUpScans, type RolledUpScans, type ScanRecord, scanRecordSchema, TAG_MAP_PLACES, tagMapPlaces, type TagMapPlaces } from "./scans";
export { activateTagInput, bulkActivateInput, createTransferInput, insuranceInputSchema, labelFormatSchema, labelQuery, labelSheetQuery, labelSizeSchema, MAX_SHEET_LABELS, mintTagsInput, paperSchema, setTagStatusInput, tagCodeInput, updateTagInput } from "./schemas";
export { acceptTransfer, cancelTransfer, createTransfer, declineTransfer, expireOverdueTransfers, listTransfers, type TransferRecord, transferRecordSchema } from "./transfers";
export { allowedTransitions, inLostMode, type TagStatus } from "./transitions";
export { exportTags } from "./export";
export { activateIfComplete, changeTagStatus, countedTags, expireTagsBeyondTierLimit, insertNewTags, switchOffTagRelay, type Tier, TIER_TAG_LIMITS, typedTables } from "./queries";
