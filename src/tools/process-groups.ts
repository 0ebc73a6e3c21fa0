// The process groups bash started, so none of them outlives the agent.

const groups = new Set<number>();
let exitHookInstalled = false;

/** Sends a signal to every process in the group; false if the group is gone. */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals): boolean {
	try {
		process.kill(-pgid, signal);
		return true;
	} catch {
		return false;
	}
}

export function isProcessGroupAlive(pgid: number): boolean {
	return isProcessAlive(-pgid);
}

/** True while a process exists (a negative id: a process group). */
export function isProcessAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: it exists but we may not signal it (it is not ours to kill, but it is alive).
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

export function trackProcessGroup(pgid: number): void {
	groups.add(pgid);
	if (!exitHookInstalled) {
		exitHookInstalled = true;
		// A safety net for a plain process.exit(); signal handlers in the CLI should still call killAllBashProcesses.
		process.once("exit", killAllBashProcesses);
	}
}

/** Forgets a group once nothing in it is left running (background jobs keep it tracked). */
export function releaseProcessGroup(pgid: number): void {
	if (!isProcessGroupAlive(pgid)) groups.delete(pgid);
}

/** Ids of the groups still tracked (for diagnostics and tests). */
export function trackedProcessGroups(): number[] {
	return [...groups];
}

/**
 * Kills every process group bash started (background jobs included) with SIGKILL. Synchronous, so it can run
 * inside process.on("exit"); SIGKILL because an exiting process cannot wait out a TERM grace period.
 */
export function killAllBashProcesses(): void {
	for (const pgid of groups) signalProcessGroup(pgid, "SIGKILL");
	groups.clear();
}

/**
 * The process groups one owner started (a session's bash tool), tracked here as well as globally, so that
 * disposing the owner ends its commands' background jobs without touching another session's.
 */
export class ProcessGroupSet {
	private readonly owned = new Set<number>();

	track(pgid: number): void {
		trackProcessGroup(pgid);
		this.owned.add(pgid);
	}

	release(pgid: number): void {
		releaseProcessGroup(pgid);
		if (!groups.has(pgid)) this.owned.delete(pgid);
	}

	/** Kills every group of this owner still tracked (SIGKILL, synchronous). */
	killAll(): void {
		for (const pgid of this.owned) {
			signalProcessGroup(pgid, "SIGKILL");
			groups.delete(pgid);
		}
		this.owned.clear();
	}
}
