// The built-in tools' definitions, for tests that draw rows, build prompts or list files: what the session
// hands the screen. Their presentation never touches the working directory.
import { createBuiltinTools } from "../../src/tools/index.js";

/** Every built-in tool, those off by default (grep, find, ls, web_fetch, web_search) included. */
export const builtinTools = createBuiltinTools("/").known;
