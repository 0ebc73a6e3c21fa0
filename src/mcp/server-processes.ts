// The process groups of the stdio servers loom started. Each server runs in a group of its own, so that
// ending it ends whatever it started too, and so that Ctrl+C in loom's terminal reaches loom, not the servers.
// Whatever way loom leaves (a normal exit, a signal the CLI turns into one, an uncaught error), the groups
// still tracked are killed as it exits.
import { isProcessGroupAlive, signalProcessGroup } from "../tools/process-groups.js";

const groups = new Set<number>();
let exitHookInstalled = false;

export function trackServerGroup(pgid: number): void {
	groups.add(pgid);
	if (!exitHookInstalled) {
		exitHookInstalled = true;
		process.once("exit", killAllServerGroups);
	}
}

/** Kills what is left of a group (a server that exited may leave children behind) and forgets it. */
export function endServerGroup(pgid: number, signal: NodeJS.Signals = "SIGKILL"): void {
	signalProcessGroup(pgid, signal);
	if (signal === "SIGKILL" || !isProcessGroupAlive(pgid)) groups.delete(pgid);
}

/** Groups still tracked (for tests and diagnostics). */
export function trackedServerGroups(): number[] {
	return [...groups];
}

/** Synchronous, so it can run while the process exits; SIGKILL because an exiting process cannot wait. */
export function killAllServerGroups(): void {
	for (const pgid of groups) signalProcessGroup(pgid, "SIGKILL");
	groups.clear();
}
