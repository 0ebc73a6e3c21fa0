// Puts the sandbox on a session: the fallback notice goes to the session's notices, a link in the after-chain
// turns each write the sandbox refused in a command's output into a plain sentence and a record on the call,
// loom's proxy starts when the network has an allowlist, and /sandbox shows and switches the mode.
import { homedir } from "node:os";
import type { AfterLink, AgentSession, ToolDefinition } from "../../core/index.js";
import { findTool } from "../../core/index.js";
import { type NetworkProxy, startNetworkProxy } from "./network-proxy.js";
import type { Sandbox } from "./sandbox.js";
import { sandboxCommand } from "./sandbox-command.js";
import { blockNote, sandboxBlocks } from "./sandbox-violations.js";

export interface InstallSandboxOptions {
	/** The folder `~` means; default the user's home. */
	home?: string;
}

/** The failure sentence the bash tool ends an error with: the note goes before it, so the row still finds it last. */
const FAILURE_SENTENCE = /\n\nCommand [^\n]*\.$/;

export function installSandbox(session: AgentSession, sandbox: Sandbox, options: InstallSandboxOptions = {}): void {
	const home = options.home ?? homedir();
	sandbox.onFallback((text) => session.ui.notify("warning", text));

	const after: AfterLink = ({ toolCall, result, context }) => {
		const tool = findTool(context.tools, toolCall.name) as ToolDefinition | undefined;
		if (tool?.shellCommand === undefined || sandbox.mode === "off") return undefined;
		const index = result.content.findLastIndex((part) => part.type === "text");
		const part = result.content[index];
		if (!part || part.type !== "text") return undefined;
		const blocks = sandboxBlocks(part.text, sandbox.policy(), session.cwd, home);
		if (blocks.length === 0) return undefined;
		const note = `\n\n${blockNote(blocks, sandbox.mode)}`;
		const failure = FAILURE_SENTENCE.exec(part.text);
		const text = failure ? `${part.text.slice(0, failure.index)}${note}${failure[0]}` : `${part.text}${note}`;
		const content = result.content.map((item, at) => (at === index ? { ...part, text } : item));
		const details = { ...(typeof result.details === "object" && result.details !== null ? result.details : {}), sandboxBlocked: blocks.map((block) => block.path) };
		return { content, details };
	};

	let proxy: NetworkProxy | undefined;
	const allow = sandbox.networkAllow;
	if (allow.length > 0) {
		void startNetworkProxy(allow, (host) => session.ui.notify("warning", `The sandbox refused a connection to ${host}: it is not in sandbox.network.allow.`))
			.then((started) => {
				proxy = started;
				sandbox.useNetwork({ kind: "proxy", allow, proxyUrl: started.url });
			})
			.catch((error: Error) => session.ui.notify("error", `loom's network proxy did not start (${error.message}); commands get no network.`));
	}
	session.onDispose(() => void proxy?.close());
	session.hooks.after.add(after, { stage: "policy", name: "sandbox" });
	session.commands.register(sandboxCommand(sandbox, session.cwd, home));
}
