// Plugs language servers into a session: a file a call reads starts its server early; a call that changes files
// takes their diagnostics before (a link in the before-chain) and appends the new errors to its result after (a
// link in the after-chain): to the text the model reads, and to the details (`diagnostics`) that rows and JSON
// events carry. The servers end with the session.
import { findTool, toolFileEffects } from "../../core/index.js";
import type { AgentSession, ToolResultDiagnostics } from "../../core/index.js";
import type { LanguageServers, NewDiagnostics } from "./language-servers.js";

export function installLsp(session: AgentSession, servers: LanguageServers): void {
	servers.notify = (level, text) => session.ui.notify(level, text);
	const unlinkBefore = session.hooks.before.add(
		async ({ toolCall, args }) => {
			const effects = toolFileEffects(findTool(session.tools, toolCall.name), args);
			for (const path of effects.reads) if (servers.covers(path)) servers.touch(path);
			// Only the files' text is read here; the server gets it meanwhile, while the call runs.
			await Promise.all(effects.changes.filter((path) => servers.covers(path)).map((path) => servers.beforeChange(path)));
			return undefined;
		},
		// Last: a call the policy refuses takes no baseline.
		{ stage: "final", name: "lsp" },
	);
	const unlinkAfter = session.hooks.after.add(
		async ({ toolCall, args, result, isError }, signal) => {
			if (isError) return undefined;
			const changes = toolFileEffects(findTool(session.tools, toolCall.name), args).changes.filter((path) => servers.covers(path));
			if (changes.length === 0) return undefined;
			const found = (await Promise.all(changes.map((path) => servers.afterChange(path, signal)))).filter((entry): entry is NewDiagnostics => entry !== undefined);
			if (found.length === 0) return undefined;
			const count = found.reduce((sum, entry) => sum + entry.count, 0);
			const lines = found.flatMap((entry) => entry.lines);
			const kind = found[0]!.kind;
			const text = `\n\nThe language server reports ${count} new ${count === 1 ? kind.replace(/s\b/g, "") : kind} after this change:\n${lines.join("\n")}`;
			const diagnostics: ToolResultDiagnostics = { count, lines };
			const details = result.details !== null && typeof result.details === "object" && !Array.isArray(result.details) ? { ...result.details, diagnostics } : { diagnostics };
			return { content: [...result.content, { type: "text", text }], details };
		},
		// Before the final links: the secret mask sees the servers' text too.
		{ stage: "extension", name: "lsp" },
	);
	session.onDispose(() => {
		unlinkBefore();
		unlinkAfter();
		servers.dispose();
	});
}
