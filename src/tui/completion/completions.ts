// The editor's completion source: commands after "/", project files after "@", and the path under the cursor
// on Tab. The file index is built only once "@" is first typed.
import { FileIndex } from "./file-index.js";
import { FileMatcher } from "./file-matcher.js";
import { type CommandInfo, type SuggestionList, commandSuggestions, fileSuggestions, pathSuggestions } from "./suggestions.js";

export interface CompletionSource {
	/** What to offer for the text as typed, from what is at hand now; undefined: nothing to offer. Never waits. */
	suggest(text: string, cursor: number): SuggestionList | undefined;
	/** Tab: what completes the word under the cursor (a path); may read the disk. */
	complete(text: string, cursor: number): Promise<SuggestionList | undefined>;
	/** Told when suggest() would answer differently (more files indexed or matched). Returns the unsubscriber. */
	subscribe(listener: () => void): () => void;
	/** Stops background work. */
	stop(): void;
}

export function createCompletions(commands: () => readonly CommandInfo[], cwd: string): CompletionSource {
	const listeners = new Set<() => void>();
	let index: FileIndex | undefined;
	let files: FileMatcher | undefined;
	const matcher = (): FileMatcher => {
		if (!files) {
			index = new FileIndex(cwd);
			files = new FileMatcher(index);
			files.subscribe(() => {
				for (const listener of [...listeners]) listener();
			});
		}
		return files;
	};
	return {
		// The command list is built only for a text that may name a command.
		suggest: (text, cursor) =>
			(text.startsWith("/") ? commandSuggestions(text, cursor, commands()) : undefined) ?? (text.includes("@") ? fileSuggestions(text, cursor, matcher()) : undefined),
		complete: (text, cursor) => pathSuggestions(text, cursor, cwd),
		subscribe(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		stop: () => index?.stop(),
	};
}
