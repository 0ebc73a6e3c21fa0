// Types of web-search-streams.mjs: scripted turns (raw events) and what they carry.
export declare const SEARCH_QUERY: string;
export declare const SEARCH_ANSWER: string;
export declare const SEARCH_SOURCES: { url: string; title: string }[];
export declare const anthropicSearchTurn: { rawEvents: Record<string, unknown>[] };
export declare const anthropicSearchResultBlock: Record<string, unknown>;
export declare const responsesSearchTurn: { rawEvents: Record<string, unknown>[] };
export declare const responsesSearchCallItem: Record<string, unknown>;
export declare const googleSearchTurn: { rawEvents: Record<string, unknown>[] };
