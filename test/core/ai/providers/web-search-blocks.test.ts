// The providers' own web search: the request turns web_search into each API's search tool, the blocks the
// stream carries are kept on the message (raw, in order) with the search's queries and sources, and the next
// request sends them back as each API requires.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { Tool } from "../../../../src/core/ai/index.js";
import { streamModel } from "../../../../src/core/ai/index.js";
import { runLoomInProcess } from "../../../support/loom-in-process.js";
import { workspace } from "../../../support/temp-dir.js";
import { useScriptedServer } from "../../../support/use-scripted-server.js";
import {
	anthropicSearchResultBlock,
	anthropicSearchTurn,
	googleSearchTurn,
	responsesSearchCallItem,
	responsesSearchTurn,
	SEARCH_ANSWER,
	SEARCH_QUERY,
	SEARCH_SOURCES,
} from "../../../support/web-search-streams.mjs";
import { collect, serverModel, TEST_KEY, user, type Protocol } from "./helpers.js";

const server = useScriptedServer();
const webSearch: Tool = { name: "web_search", description: "search", parameters: Type.Object({ query: Type.String() }), serverTool: "web_search" };

async function twoTurns(api: Protocol, turn: object) {
	const model = serverModel(server, api);
	server.enqueue(turn, { text: "ok" });
	const first = await collect(streamModel(model, { systemPrompt: "You are a test.", messages: [user("when was node 20 released?")], tools: [webSearch] }, { apiKey: TEST_KEY }));
	await collect(streamModel(model, { systemPrompt: "You are a test.", messages: [user("when was node 20 released?"), first.message, user("thanks")], tools: [webSearch] }, { apiKey: TEST_KEY }));
	return { message: first.message, requests: server.requests.slice(-2).map((request) => request.body) };
}

describe("provider web search", () => {
	it("Anthropic: asks for web_search_20250305, keeps server_tool_use, results and citations, and sends them back in order", async () => {
		const { message, requests } = await twoTurns("anthropic-messages", anthropicSearchTurn);
		expect(requests[0].tools).toEqual([{ type: "web_search_20250305", name: "web_search", max_uses: 5 }]);
		expect(message.search).toEqual({ queries: [SEARCH_QUERY], sources: SEARCH_SOURCES });
		expect(message.content.map((block) => (block.type === "text" ? block.text : block.type))).toEqual(["Let me search.", SEARCH_ANSWER]);
		const sent = requests[1].messages[1].content;
		expect(sent.map((block: { type: string }) => block.type)).toEqual(["text", "server_tool_use", "web_search_tool_result", "text"]);
		expect(sent[1]).toEqual({ type: "server_tool_use", id: "srvtoolu_01", name: "web_search", input: { query: SEARCH_QUERY } });
		expect(sent[2]).toEqual(anthropicSearchResultBlock);
		expect(sent[3]).toMatchObject({ text: SEARCH_ANSWER, citations: [{ type: "web_search_result_location", encrypted_index: "enc-index-1" }] });
	});

	it("Responses: asks for web_search, keeps the web_search_call and url_citation annotations, and sends the call back", async () => {
		const { message, requests } = await twoTurns("openai-responses", responsesSearchTurn);
		expect(requests[0].tools).toEqual([{ type: "web_search" }]);
		expect(message.search).toEqual({ queries: [SEARCH_QUERY], sources: SEARCH_SOURCES });
		expect(requests[1].input.slice(1, 3)).toEqual([responsesSearchCallItem, { role: "assistant", content: SEARCH_ANSWER }]);
	});

	it("Gemini: asks for googleSearch and reads the grounding metadata's queries and pages", async () => {
		const { message, requests } = await twoTurns("google-generative-ai", googleSearchTurn);
		expect(requests[0].tools).toEqual([{ googleSearch: {} }]);
		expect(message.search).toEqual({ queries: [SEARCH_QUERY], sources: SEARCH_SOURCES });
		expect(requests[1].contents[1]).toMatchObject({ role: "model", parts: [{ text: SEARCH_ANSWER }] });
	});

	it("drops the blocks for another API, keeping the answer's text", async () => {
		const { message } = await twoTurns("anthropic-messages", anthropicSearchTurn);
		const other = serverModel(server, "openai-responses");
		server.enqueue({ text: "ok" });
		await collect(streamModel(other, { messages: [user("q"), message, user("thanks")] }, { apiKey: TEST_KEY }));
		const input = server.requests.at(-1)!.body.input;
		expect(JSON.stringify(input)).not.toMatch(/server_tool_use|encrypted/);
		expect(input).toContainEqual({ role: "assistant", content: SEARCH_ANSWER });
	});

	it("print mode writes the answer on stdout and its sources on stderr", async () => {
		server.enqueue(anthropicSearchTurn);
		const flags = ["--provider", "anthropic", "--model", "claude-test", "--base-url", server.anthropicBaseUrl, "--api-key", "test-key", "--tools", "web_search"];
		const result = await runLoomInProcess(["-p", ...flags, "when was node 20 released?"], workspace());
		expect(result.code).toBe(0);
		expect(result.stdout).toContain(SEARCH_ANSWER);
		expect(result.stderr).toContain(
			"Sources:\n  Searched: node 20 release date\n  [1] Node.js 20 release notes <https://nodejs.org/en/blog/release/v20.0.0>\n  [2] Node.js changelog <https://github.com/nodejs/node/blob/main/CHANGELOG.md>\n",
		);
	});
});
