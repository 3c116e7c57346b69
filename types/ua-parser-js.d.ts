/**
 * The part of ua-parser-js 1.x (MIT) that lib/services/scans/user-agents.ts uses. Version 1 ships no
 * types; @types/ua-parser-js describes 0.7, and version 2 is AGPL, so the few members we read are here.
 */
declare module "ua-parser-js" {
  interface UAParserResult {
    ua: string;
    browser: { name?: string; version?: string; major?: string };
    device: { model?: string; type?: string; vendor?: string };
    engine: { name?: string; version?: string };
    os: { name?: string; version?: string };
    cpu: { architecture?: string };
  }

  class UAParser {
    constructor(userAgent?: string);
    getResult(): UAParserResult;
  }

  export default UAParser;
}
