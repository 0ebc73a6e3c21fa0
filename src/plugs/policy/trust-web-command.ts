// /trust-web: the user vouches for what came from the web (or an untrusted MCP server) into the conversation, so
// auto mode stops braking; the session file records it. Without a mark it says there is none.
import type { AgentSession, CommandDefinition } from "../../core/index.js";

export function trustWebCommand(session: Pick<AgentSession, "taint" | "setTaint">): CommandDefinition<unknown> {
	return {
		name: "trust-web",
		description: "clear the mark a fetched page (or an untrusted MCP server) put on the conversation: auto mode stops asking before network and config changes",
		source: "builtin",
		async handler(_args, ctx) {
			const source = session.taint;
			if (source === undefined) {
				ctx.notify("info", "Nothing from the web is marked in this conversation.");
				return;
			}
			await session.setTaint(undefined);
			ctx.notify("info", `Cleared the mark ${source} left: auto mode runs network-reaching and config-changing calls without asking again, until untrusted text comes in again.`);
		},
	};
}
