// The built-in tools' definitions, for tests that draw rows, build prompts or list files: what the session
// hands the screen. Their presentation never touches the working directory.
import { createCodingTools } from "../../src/tools/index.js";

export const builtinTools = createCodingTools("/");
