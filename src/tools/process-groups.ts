// The process groups of the commands the tools run. A session's own set is within this one, so that the CLI,
// leaving, ends every command's background jobs whichever session started them.
import { ProcessGroupSet } from "../core/index.js";

/** Every command's group (a tool made without a session's set tracks its commands here alone). */
export const commandProcessGroups = new ProcessGroupSet();

/** A set for one session's commands: disposing the session kills them without touching another session's. */
export function sessionProcessGroups(): ProcessGroupSet {
	return new ProcessGroupSet(commandProcessGroups);
}

/** Kills every command's process group, background jobs included (SIGKILL, synchronous). */
export function killAllBashProcesses(): void {
	commandProcessGroups.killAll();
}
