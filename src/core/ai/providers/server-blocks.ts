// What providers record of their own server-side tools on the message as it streams: the raw blocks to send back
// in order (ServerBlock), and the search's queries and sources for people to read (WebSearchRecord).
import type { Api, AssistantMessage, ServerBlock, WebSearchRecord } from "../llm-types.js";

/** Keeps a provider block at the current end of the content; returns it so the caller can complete it. */
export function keepServerBlock(message: AssistantMessage, api: Api, raw: unknown): ServerBlock {
	const block: ServerBlock = { api, at: message.content.length, raw };
	(message.serverBlocks ??= []).push(block);
	return block;
}

function record(message: AssistantMessage): WebSearchRecord {
	return (message.search ??= { queries: [], sources: [] });
}

export function addSearchQuery(message: AssistantMessage, query: unknown): void {
	if (typeof query !== "string" || query.trim() === "") return;
	const queries = record(message).queries;
	if (!queries.includes(query)) queries.push(query);
}

export function addSource(message: AssistantMessage, url: unknown, title?: unknown): void {
	if (typeof url !== "string" || !/^https?:\/\//i.test(url)) return;
	const sources = record(message).sources;
	const known = sources.find((source) => source.url === url);
	if (known) {
		if (!known.title && typeof title === "string" && title) known.title = title;
		return;
	}
	sources.push(typeof title === "string" && title ? { url, title } : { url });
}

/** The message's content with its server blocks put back at their places, each turned into the API's shape. */
export function withServerBlocks<T>(message: AssistantMessage, api: Api, convert: (block: AssistantMessage["content"][number], index: number) => T[], serverBlock: (raw: unknown) => T): T[] {
	const blocks = (message.serverBlocks ?? []).filter((block) => block.api === api);
	const out: T[] = [];
	let next = 0;
	message.content.forEach((block, index) => {
		while (next < blocks.length && blocks[next]!.at <= index) out.push(serverBlock(blocks[next++]!.raw));
		out.push(...convert(block, index));
	});
	while (next < blocks.length) out.push(serverBlock(blocks[next++]!.raw));
	return out;
}
