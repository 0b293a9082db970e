export { describeSchemaError } from "./schema-errors.js";
export { schemaProblems, schemaFiles } from "./schemas.js";
