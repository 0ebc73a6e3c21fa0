// An extension with a tool the model can call and a slash command for you:
//   loom -e examples/06-custom-tool-extension.ts          then ask "how long is README.md?" or type /line-stats
import { statSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type ExtensionAPI, Type } from "loom";

/** Files bigger than this are not read: an extension reading files for the model keeps what it reads bounded. */
const MAX_BYTES = 4 * 1024 * 1024;

export default function (loom: ExtensionAPI) {
	const counted: string[] = [];

	loom.registerTool({
		name: "count_lines",
		label: "Count lines",
		description: "Counts the lines of a text file in the working directory.",
		promptGuide: "count the lines of a file (cheaper than reading it)",
		parameters: Type.Object({ path: Type.String({ description: "Path relative to the working directory" }) }),
		// Calls only read: they may run in parallel with the others of a batch.
		readOnly: true,
		summarizeArgs: (args) => String((args as { path?: unknown })?.path ?? ""),
		async execute(_toolCallId, { path }) {
			const file = resolve(loom.cwd, path);
			const stat = statSync(file);
			if (!stat.isFile()) throw new Error(`${path} is not a regular file.`);
			if (stat.size > MAX_BYTES) throw new Error(`${path} is over ${MAX_BYTES} bytes; use bash (wc -l) instead.`);
			const lines = readFileSync(file, "utf8").split("\n").length - 1;
			counted.push(path);
			return { content: [{ type: "text", text: `${path}: ${lines} lines` }], details: { lines } };
		},
	});

	loom.registerCommand("line-stats", {
		description: "which files count_lines has counted in this session",
		handler: (_args, ctx) => ctx.notify("info", counted.length === 0 ? "count_lines has not run yet." : `count_lines counted: ${counted.join(", ")}`),
	});
}
