// Door of print mode: one prompt run without the screen, its answer as text or its events as JSON lines.
export { eventToJsonLine, LineWriter } from "./line-writer.js";
export { StdoutError, runPrintMode, type PrintResult, type ResultLine } from "./print-mode.js";
export { loadOutputSchema, outputCheck, outputInstruction, OutputSchemaError, type OutputCheck } from "./output-schema.js";
export { warningsToReport } from "./reported-warnings.js";
