import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { SessionPort } from "../session-port.js";
import type { NewTranscriptItem } from "../transcript/index.js";
import { type ShellRequest, type ShellResult, parseShellCommand, withShellContext } from "../editor/index.js";

export interface ShellCommands {
	/** The command running now, if any. */
	running: { command: string; startedAt: number } | undefined;
	/** Runs `text` when it is a `!command` (resolves true once its output is shown); false at once for any other text. */
	run(text: string): Promise<boolean>;
	/** The prompt with the output of the `!!` commands run since the last prompt ahead of it. */
	withContext(prompt: string): string;
	/** The prompt carrying that output has started: it is not sent again. */
	contextSent(): void;
	/** Stops the running command. */
	stop(): void;
}

/**
 * `!command` and `!!command` from the editor: each run's output goes into the transcript through `show`, secrets
 * masked by `mask` first, so what is shown is what `!!` gives the model.
 */
export function useShellCommands(session: SessionPort, show: (item: NewTranscriptItem) => void, mask: (text: string) => string): ShellCommands {
	const [running, setRunning] = useState<ShellCommands["running"]>();
	const controller = useRef<AbortController | undefined>(undefined);
	const pending = useRef<(ShellRequest & ShellResult)[]>([]);
	useEffect(() => () => controller.current?.abort(), []);

	const run = useCallback(
		async (text: string) => {
			const request = parseShellCommand(text);
			if (!request) return false;
			if (controller.current) {
				show({ kind: "notice", level: "error", text: "A shell command is still running. Esc stops it." });
				return true;
			}
			const abort = new AbortController();
			controller.current = abort;
			setRunning({ command: request.command, startedAt: Date.now() });
			try {
				const ran = await session.runUserCommand(request.command, { signal: abort.signal });
				const result = { ...ran, output: mask(ran.output) };
				if (request.forContext) pending.current.push({ ...request, ...result });
				show({ kind: "shell", command: request.command, output: result.output, exitCode: result.exitCode, forContext: request.forContext });
			} catch (error) {
				show({ kind: "notice", level: "error", text: `Could not run ${request.command}: ${(error as Error).message}` });
			} finally {
				controller.current = undefined;
				setRunning(undefined);
			}
			return true;
		},
		[session, show, mask],
	);

	const withContext = useCallback((prompt: string) => withShellContext(prompt, pending.current), []);
	const contextSent = useCallback(() => {
		pending.current = [];
	}, []);
	const stop = useCallback(() => controller.current?.abort(), []);
	return useMemo(() => ({ running, run, withContext, contextSent, stop }), [running, run, withContext, contextSent, stop]);
}
