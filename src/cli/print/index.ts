// Door of print mode: one prompt run without the screen, its answer as text or its events as JSON lines.
export { eventToJsonLine } from "./json-events.js";
export { LineWriter } from "./line-writer.js";
export { StdoutError, runPrintMode } from "./print-mode.js";
export { printPrompt } from "./prompt-command.js";
export { warningsToReport } from "./reported-warnings.js";
