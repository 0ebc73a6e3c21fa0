// Door of cli/print.
export { eventToJsonLine } from "./json-events.js";
export { LineWriter } from "./line-writer.js";
export { StdoutError, runPrintMode } from "./print-mode.js";
export { printPrompt } from "./prompt-command.js";
export { warningsToReport } from "./reported-warnings.js";
