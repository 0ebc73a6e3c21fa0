// /sandbox: shows the mode and what it lets commands do, switches it, or lets commands write one more path
// for the session (what a "blocked by the sandbox" note asks for).
import { resolve } from "node:path";
import { type CommandDefinition, expandHome, SANDBOX_MODES, type SandboxMode } from "../../core/index.js";
import type { Sandbox } from "./sandbox.js";

/** What each mode lets commands do, in a sentence's middle. */
export const SANDBOX_MODE_MEANING: Readonly<Record<SandboxMode, string>> = {
	off: "commands run unconfined, with everything the user can reach",
	"workspace-write": "commands may write only the working tree and the temp dir (not .git, .loom and the like), the network is closed",
	"read-only": "commands may write nothing but a private /tmp, the network is closed",
};

export function sandboxCommand(sandbox: Sandbox, cwd: string, home: string): CommandDefinition<unknown> {
	return {
		name: "sandbox",
		argsHint: `[${SANDBOX_MODES.join("|")}|allow PATH]`,
		description: "the kernel sandbox of commands and MCP servers (without arguments: the mode and what it allows)",
		source: "builtin",
		async handler(args, ctx) {
			const [word = "", ...rest] = args.trim().split(/\s+/);
			if (word === "") {
				ctx.notify("info", statusText(sandbox));
				return;
			}
			if (word === "allow") {
				const path = rest.join(" ");
				if (path === "") {
					ctx.notify("error", "Say what to allow: /sandbox allow PATH (a folder or file commands may then write for this session).");
					return;
				}
				const absolute = resolve(cwd, expandHome(path, home));
				sandbox.allowWrite(absolute);
				const note = sandbox.mode === "workspace-write" ? "" : ` (it applies in workspace-write; the mode is ${sandbox.mode})`;
				ctx.notify("info", `Commands may write ${absolute} for this session${note}.`);
				return;
			}
			if (!(SANDBOX_MODES as readonly string[]).includes(word)) {
				ctx.notify("error", `Unknown sandbox mode "${word}". Use one of: ${SANDBOX_MODES.join(", ")}, or allow PATH.`);
				return;
			}
			try {
				sandbox.setMode(word as SandboxMode);
			} catch (error) {
				ctx.notify("error", (error as Error).message);
				return;
			}
			ctx.notify("info", `Sandbox: ${word} (${SANDBOX_MODE_MEANING[word as SandboxMode]}).`);
		},
	};
}

function statusText(sandbox: Sandbox): string {
	const mode = sandbox.mode;
	const launcher = sandbox.launcher();
	const policy = sandbox.policy();
	const lines = [`Sandbox: ${mode} (${SANDBOX_MODE_MEANING[mode]}). Switch with /sandbox <${SANDBOX_MODES.join("|")}>.`];
	if (launcher.kind === "none") lines.push(`No sandbox can run here: ${launcher.reason}. To have one, ${launcher.fix}.`);
	else lines.push(`Launcher: ${launcher.path}`);
	if (mode !== "off") {
		lines.push(`Writable: ${policy.writableRoots.length > 0 ? policy.writableRoots.join(", ") : "nothing (a private /tmp)"}`);
		lines.push(`Read-only inside the project: ${policy.protectedNames.join(", ") || "nothing"}`);
		lines.push(`Hidden: ${policy.hiddenPaths.join(", ") || "nothing"}`);
		lines.push(`Network: ${policy.network.kind === "closed" ? "closed" : `only ${policy.network.allow.join(", ")} through loom's proxy`}`);
	}
	if (sandbox.sessionGrants.length > 0) lines.push(`Allowed for this session: ${sandbox.sessionGrants.join(", ")}`);
	return lines.join("\n");
}
