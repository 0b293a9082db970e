/** pagepath's version, written into every file it produces. Kept in step with package.json. */
export const TOOL_VERSION = "0.1.0";
