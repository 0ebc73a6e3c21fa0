// The pages an answer rests on, as people read them wherever it is shown (screen, export, print mode): the
// searches the provider ran, then each page numbered once.
import type { AssistantMessage, WebSearchRecord } from "./llm-types.js";

/** The message's search record when it has queries or sources; undefined otherwise (or for a message of an older loom). */
export function messageSearch(message: unknown): WebSearchRecord | undefined {
	const search = (message as Partial<AssistantMessage> | undefined)?.search;
	if (!search || !Array.isArray(search.sources) || !Array.isArray(search.queries)) return undefined;
	return search.sources.length > 0 || search.queries.length > 0 ? search : undefined;
}

/** "Searched: a; b", then "[1] Title <url>" per page. */
export function sourceLines(search: WebSearchRecord): string[] {
	const lines: string[] = [];
	if (search.queries.length > 0) lines.push(`Searched: ${search.queries.join("; ")}`);
	search.sources.forEach((source, index) => lines.push(`[${index + 1}] ${source.title ? `${source.title} ` : ""}<${source.url}>`));
	return lines;
}
