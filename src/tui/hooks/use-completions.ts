import { useEffect, useMemo } from "react";
import type { CommandLookup } from "../../core/index.js";
import { type CompletionSource, createCompletions } from "../completion/index.js";

/** The editor's completions for this screen: its commands (read at each keystroke: the list may grow) and the files under `cwd`. */
export function useCompletions(commands: CommandLookup<unknown>, cwd: string): CompletionSource {
	const completions = useMemo(() => createCompletions(() => commands.list(), cwd), [commands, cwd]);
	useEffect(() => () => completions.stop(), [completions]);
	return completions;
}
