// Streams carrying the providers' server-side search blocks, as scripted turns (rawEvents) for the scripted model
// server: shaped like the documented streams of Anthropic's web search tool (server_tool_use, web_search_tool_result,
// citations_delta), OpenAI Responses' web_search_call with url_citation annotations, and Gemini's grounding metadata.
// Written from the APIs' documentation, trimmed to one search and one cited sentence each.

const DOCS = { url: "https://nodejs.org/en/blog/release/v20.0.0", title: "Node.js 20 release notes" };
const CHANGELOG = { url: "https://github.com/nodejs/node/blob/main/CHANGELOG.md", title: "Node.js changelog" };
export const SEARCH_QUERY = "node 20 release date";
export const SEARCH_ANSWER = "Node.js 20 was released in April 2023.";
export const SEARCH_SOURCES = [DOCS, CHANGELOG];

const anthropicSearchResult = {
	type: "web_search_tool_result",
	tool_use_id: "srvtoolu_01",
	content: [
		{ type: "web_search_result", url: DOCS.url, title: DOCS.title, encrypted_content: "enc-page-1", page_age: "April 18, 2023" },
		{ type: "web_search_result", url: CHANGELOG.url, title: CHANGELOG.title, encrypted_content: "enc-page-2" },
	],
};

export const anthropicSearchTurn = {
	rawEvents: [
		{ type: "message_start", message: { id: "msg_01", type: "message", role: "assistant", model: "claude-test", content: [], usage: { input_tokens: 20, output_tokens: 1 } } },
		{ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
		{ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Let me search." } },
		{ type: "content_block_stop", index: 0 },
		{ type: "content_block_start", index: 1, content_block: { type: "server_tool_use", id: "srvtoolu_01", name: "web_search", input: {} } },
		{ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: `{"query": "${SEARCH_QUERY}"}` } },
		{ type: "content_block_stop", index: 1 },
		{ type: "content_block_start", index: 2, content_block: anthropicSearchResult },
		{ type: "content_block_stop", index: 2 },
		{ type: "content_block_start", index: 3, content_block: { type: "text", text: "", citations: [] } },
		{
			type: "content_block_delta",
			index: 3,
			delta: { type: "citations_delta", citation: { type: "web_search_result_location", url: DOCS.url, title: DOCS.title, encrypted_index: "enc-index-1", cited_text: "Node.js 20 was released on April 18, 2023" } },
		},
		{ type: "content_block_delta", index: 3, delta: { type: "text_delta", text: SEARCH_ANSWER } },
		{ type: "content_block_stop", index: 3 },
		{ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 40, server_tool_use: { web_search_requests: 1 } } },
		{ type: "message_stop" },
	],
};
export const anthropicSearchResultBlock = anthropicSearchResult;

const responsesSearchCall = { type: "web_search_call", id: "ws_01", status: "completed", action: { type: "search", query: SEARCH_QUERY } };
const responsesMessage = (annotations) => ({
	type: "message",
	id: "msg_01",
	status: "completed",
	role: "assistant",
	content: [{ type: "output_text", text: SEARCH_ANSWER, annotations }],
});
const annotations = [
	{ type: "url_citation", start_index: 0, end_index: SEARCH_ANSWER.length, url: DOCS.url, title: DOCS.title },
	{ type: "url_citation", start_index: 0, end_index: SEARCH_ANSWER.length, url: CHANGELOG.url, title: CHANGELOG.title },
];

export const responsesSearchTurn = {
	rawEvents: [
		{ type: "response.created", response: { id: "resp_01", status: "in_progress", output: [] } },
		{ type: "response.output_item.added", output_index: 0, item: { ...responsesSearchCall, status: "in_progress" } },
		{ type: "response.web_search_call.in_progress", output_index: 0, item_id: "ws_01" },
		{ type: "response.web_search_call.searching", output_index: 0, item_id: "ws_01" },
		{ type: "response.web_search_call.completed", output_index: 0, item_id: "ws_01" },
		{ type: "response.output_item.done", output_index: 0, item: responsesSearchCall },
		{ type: "response.output_item.added", output_index: 1, item: { ...responsesMessage([]), status: "in_progress", content: [] } },
		{ type: "response.content_part.added", output_index: 1, content_index: 0, item_id: "msg_01", part: { type: "output_text", text: "", annotations: [] } },
		{ type: "response.output_text.delta", output_index: 1, content_index: 0, item_id: "msg_01", delta: SEARCH_ANSWER },
		{ type: "response.output_text.annotation.added", output_index: 1, content_index: 0, item_id: "msg_01", annotation_index: 0, annotation: annotations[0] },
		{ type: "response.output_text.annotation.added", output_index: 1, content_index: 0, item_id: "msg_01", annotation_index: 1, annotation: annotations[1] },
		{ type: "response.output_text.done", output_index: 1, content_index: 0, item_id: "msg_01", text: SEARCH_ANSWER },
		{ type: "response.content_part.done", output_index: 1, content_index: 0, item_id: "msg_01", part: { type: "output_text", text: SEARCH_ANSWER, annotations } },
		{ type: "response.output_item.done", output_index: 1, item: responsesMessage(annotations) },
		{ type: "response.completed", response: { id: "resp_01", status: "completed", usage: { input_tokens: 20, output_tokens: 30, total_tokens: 50 } } },
	],
};
export const responsesSearchCallItem = responsesSearchCall;

export const googleSearchTurn = {
	rawEvents: [
		{
			candidates: [
				{
					content: { role: "model", parts: [{ text: SEARCH_ANSWER }] },
					finishReason: "STOP",
					groundingMetadata: {
						webSearchQueries: [SEARCH_QUERY],
						searchEntryPoint: { renderedContent: "<div>…</div>" },
						groundingChunks: [{ web: { uri: DOCS.url, title: DOCS.title } }, { web: { uri: CHANGELOG.url, title: CHANGELOG.title } }],
						groundingSupports: [{ segment: { startIndex: 0, endIndex: SEARCH_ANSWER.length, text: SEARCH_ANSWER }, groundingChunkIndices: [0, 1] }],
					},
				},
			],
			usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 10, totalTokenCount: 30 },
		},
	],
};
