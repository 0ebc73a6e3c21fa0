// Setup of the "unit" project, whose files share a worker's loaded modules: loom starts some loads without waiting
// for them (the highlighter, the shell parser, a model's SDK), and one started by a file's last test would still be
// loading when vitest tears that file's environment down, failing whichever file runs next. Loading them before a
// file's tests makes every such later load a cached one.
import { beforeAll } from "vitest";
import { preloadModelSdk } from "../../src/core/ai/index.js";
import { parseShell } from "../../src/plugs/policy/shell-parse.js";
import { loadHighlighter } from "../../src/tui/text/index.js";

beforeAll(async () => {
	await Promise.all([
		loadHighlighter(),
		parseShell("true", "/"),
		preloadModelSdk({ api: "anthropic-messages" }),
		preloadModelSdk({ api: "openai-completions" }),
	]);
}, 60_000);
