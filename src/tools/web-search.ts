// The web_search tool: the model provider's own search (Anthropic's web search tool, OpenAI Responses' web_search,
// Gemini's Google Search grounding), run on the provider's side, so no key of another service is needed. The
// provider gets its own tool in place of this function (Tool.serverTool); only a provider without one sends the
// function, and then a call of it says search is unavailable. Off unless enabled, like web_fetch.
import { type Static, Type } from "@sinclair/typebox";
import { rawString, type ToolDefinition } from "../core/index.js";

export const webSearchSchema = Type.Object({
	query: Type.String({ description: "What to search the web for" }),
});

export type WebSearchToolInput = Static<typeof webSearchSchema>;

export function createWebSearchTool(): ToolDefinition<typeof webSearchSchema, undefined> {
	return {
		name: "web_search",
		label: "Search",
		description: "Search the web. Results come with their pages' addresses; cite the pages you use.",
		parameters: webSearchSchema,
		serverTool: "web_search",
		promptGuide: "search the web (the model provider's own search); cite the pages you use",
		readOnly: true,
		untrustedOutput: true,
		summarizeArgs: (args) => rawString(args, "query") ?? "",
		async execute() {
			throw new Error(
				"Web search is unavailable for this model: its provider has no server-side search loom can use (Anthropic, OpenAI Responses and Gemini models have one). Use web_fetch on an address you know, or ask the user.",
			);
		},
	};
}
