export { describeSchemaError } from "./schema-errors.js";
export { schemaProblems } from "./schemas.js";
export { FORMATS, type FormatEntry } from "./catalogue.js";
