export { describeSchemaError } from "./schema-errors.js";
export { schemaProblems, schemaFiles } from "./schemas.js";
export { FORMATS, type FormatEntry } from "./catalogue.js";
