// An extension that blocks `rm -rf` before it runs and adds a hint to failed commands (seed 001's "在扩展层做拦截").
// The reason of a block is what the model reads instead of the command's output, so it says what to do instead.
//   loom -e examples/05-guard-extension.ts
// Handlers must not assume a sibling call of the same answer has run or has a result: calls may run in parallel.
import type { ExtensionAPI } from "loom";

export default function (loom: ExtensionAPI) {
	loom.on("tool_call", async (event) => {
		// Dangerous commands are stopped here. Checking toolName narrows the event: for "bash", event.input is the
		// bash tool's input.
		if (event.toolName === "bash" && /rm\s+-rf/.test(event.input.command)) {
			return { block: true, reason: "rm -rf is not allowed here: delete the exact files you mean instead." };
		}
		return undefined;
	});

	loom.on("tool_result", async (event) => {
		// Post-processing: a failed command gets a line of context.
		if (event.isError && event.toolName === "bash") {
			return { content: [...event.content, { type: "text", text: "Hint: run ls first to check the path, then retry." }] };
		}
		return undefined;
	});
}
