// The provider's web search in the real screen (tmux): the answer's sources numbered under it, the footer's mark
// for web text in the conversation, and both again after a resume, from the session file that kept the blocks.
import { describe, expect, it } from "vitest";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { sessionFiles, sessionLines } from "../support/loom-process.js";
import { hasTmux } from "../support/tmux-terminal.js";
import { anthropicSearchTurn, SEARCH_ANSWER } from "../support/web-search-streams.mjs";

describe.skipIf(!hasTmux())("web search sources in the screen (tmux)", () => {
	const { server, workspace, open } = useLoomInTmux("loom-web");

	it("numbers the sources under the answer, marks the footer, and shows both again after a resume", async () => {
		const ws = workspace();
		const args = (...more: string[]) => ["--provider", "anthropic", "--model", "claude-test", "--base-url", server.anthropicBaseUrl, "--tools", "read,web_search", ...more];
		let { terminal } = open({ workspace: ws, args: args(), columns: 120, rows: 30 });
		await terminal.waitForScreen((text) => text.includes("ready"), "the editor");
		server.enqueue(anthropicSearchTurn);
		await terminal.typeLine("when was node 20 released?");
		const answered = await terminal.waitForScreen((text) => text.includes(SEARCH_ANSWER) && text.includes("web text (/trust-web)"), "the answer and the mark");
		expect(answered).toContain("⌕ Searched: node 20 release date");
		expect(answered).toContain("[1] Node.js 20 release notes <https://nodejs.org/en/blog/release/v20.0.0>");
		expect(answered).toContain("[2] Node.js changelog <https://github.com/nodejs/node/blob/main/CHANGELOG.md>");
		expect(server.requests.at(-1)!.body.tools).toContainEqual({ type: "web_search_20250305", name: "web_search", max_uses: 5 });
		terminal.sendKeys("C-d");
		await terminal.waitForScreen((text) => text.includes("[loom exited with 0]"), "loom exiting");

		const lines = sessionLines(sessionFiles(ws.home)[0]!);
		expect(lines.find((line) => line.type === "taint")).toMatchObject({ source: "web_search" });
		const answer = lines.find((line) => line.type === "message" && line.message.role === "assistant").message;
		expect(answer.serverBlocks.map((block: { raw: { type: string } }) => block.raw.type)).toEqual(["server_tool_use", "web_search_tool_result"]);

		({ terminal } = open({ workspace: ws, args: args("-c"), columns: 120, rows: 30 }));
		const resumed = await terminal.waitForScreen((text) => text.includes("Resumed session") && text.includes("ready"), "the resumed session");
		expect(resumed).toContain("[1] Node.js 20 release notes");
		expect(resumed).toContain("web text (/trust-web)");
		server.enqueue({ text: "You are welcome." });
		await terminal.typeLine("thanks");
		await terminal.waitForScreen((text) => text.includes("You are welcome."), "the second answer");
		const sent = server.requests.at(-1)!.body.messages[1].content.map((block: { type: string }) => block.type);
		expect(sent).toEqual(["text", "server_tool_use", "web_search_tool_result", "text"]);
		terminal.sendKeys("C-d");
		await terminal.waitForScreen((text) => text.includes("[loom exited with 0]"), "loom exiting");
	});
});
