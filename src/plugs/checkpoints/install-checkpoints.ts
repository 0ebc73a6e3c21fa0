// Plugs checkpoints into a session: a snapshot starts with each prompt's run, each tool call that may change files
// waits for it (a link in the before-chain), the run's end is recorded, and the session rewinds through it. All of
// it comes off when the session is disposed.
import { findTool, toolFileEffects } from "../../core/index.js";
import type { AgentSession } from "../../core/index.js";
import type { SnapshotLimits } from "./changed-files.js";
import { Checkpointer } from "./checkpointer.js";

export interface CheckpointOptions {
	home: string;
	/** settings.json's `checkpoints`: false turns them off. */
	enabled?: boolean;
	limits?: Partial<SnapshotLimits>;
}

/** Returns the checkpointer, or undefined when checkpoints are off. */
export function installCheckpoints(session: AgentSession, options: CheckpointOptions): Checkpointer | undefined {
	if (options.enabled === false) return undefined;
	const checkpointer = new Checkpointer({
		home: options.home,
		cwd: session.cwd,
		limits: options.limits,
		session: () => ({ id: session.sessionId, file: session.sessionFile, parentFile: session.parentSessionFile }),
		notify: (level, text) => session.ui.notify(level, text),
	});
	const stop = session.subscribe((event) => {
		if (event.type === "run_start") checkpointer.beginRun();
		// Awaited: the files as the run left them are recorded before anyone hears that it ended.
		else if (event.type === "run_end") return checkpointer.endRun();
		else if (event.type === "message_end" && event.message.role === "user") {
			const entry = session.entries.findLast((candidate) => candidate.type === "message" && candidate.message === event.message);
			if (entry) checkpointer.bindPrompt(entry.id);
		}
		return undefined;
	}, { open: false });
	const unlink = linkCheckpointBefore(session, checkpointer);
	session.setFileCheckpoints(checkpointer);
	session.onDispose(() => {
		stop();
		unlink();
		checkpointer.dispose().catch(() => undefined);
	});
	return checkpointer;
}

/**
 * Makes each of `session`'s tool calls that may change files wait for `checkpointer`'s snapshot of the run's "before":
 * a session's own checkpointer, or its parent's for a subagent working in the parent's tree (whose changes belong to
 * the parent's prompt). Returns the unlink.
 */
export function linkCheckpointBefore(session: AgentSession, checkpointer: Checkpointer): () => void {
	return session.hooks.before.add(
		async ({ toolCall, args }) => {
			const tool = findTool(session.tools, toolCall.name);
			// A tool that says it changes nothing needs no checkpoint; any other (unknown tools included) waits.
			if (tool?.readOnly === true) return undefined;
			await checkpointer.beforeChange(toolFileEffects(tool, args).changes);
			return undefined;
		},
		// Last of all links: an approval question is not delayed by a snapshot, and a pre-image is taken as late
		// as possible before the call runs.
		{ stage: "final", name: "checkpoint" },
	);
}
