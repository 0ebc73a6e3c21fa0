// The process groups an owner started (a session's commands, the MCP servers): each child runs in a group of
// its own (spawned detached), so that ending the group ends whatever the child started too, and so that Ctrl+C
// in loom's terminal reaches loom only. Whatever way loom leaves, every group still tracked in any set is
// killed as it exits.
//
// Whether a process (or a process group) still exists is asked with signal 0, which tests without sending.
import { onProcessExit } from "./process-exit.js";

/** True while the process exists, ours or not (EPERM: another user's, alive all the same). */
export function isAlive(pid: number): boolean {
	return pid > 0 && Number.isInteger(pid) && exists(pid);
}

/** True while any process of the group exists. */
export function isGroupAlive(pgid: number): boolean {
	return pgid > 0 && Number.isInteger(pgid) && exists(-pgid);
}

function exists(id: number): boolean {
	try {
		process.kill(id, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code !== "ESRCH";
	}
}

/** The sets holding groups now; the exit hook kills theirs. */
const live = new Set<ProcessGroupSet>();

function killEveryGroup(): void {
	for (const set of [...live]) set.killAll();
}

/** Sends a signal to every process in the group; false when the group is gone. */
function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
	try {
		process.kill(-pgid, signal);
		return true;
	} catch {
		return false;
	}
}

export class ProcessGroupSet {
	private readonly groups = new Set<number>();

	/** `within`: a set that tracks every group of this one too (the tools' set, for a session's own). */
	constructor(private readonly within?: ProcessGroupSet) {}

	track(pgid: number): void {
		this.groups.add(pgid);
		this.within?.track(pgid);
		live.add(this);
		onProcessExit(killEveryGroup);
	}

	/** Forgets a group once nothing in it runs; one with background jobs left stays tracked until killed. */
	release(pgid: number): void {
		if (isGroupAlive(pgid)) return;
		this.forget(pgid);
	}

	/** Sends a signal to a group (forgetting it only once it is gone); false when the group is gone. */
	signal(pgid: number, signal: NodeJS.Signals): boolean {
		const sent = signalGroup(pgid, signal);
		if (!sent) this.forget(pgid);
		return sent;
	}

	/** Kills a group at once (SIGKILL) and forgets it. */
	kill(pgid: number): void {
		signalGroup(pgid, "SIGKILL");
		this.forget(pgid);
	}

	/**
	 * Asks a group to end (SIGTERM), then kills it (SIGKILL) after `graceMs` unless it is gone by then. The wait
	 * keeps no process alive.
	 */
	terminate(pgid: number, graceMs: number): void {
		if (!this.signal(pgid, "SIGTERM")) return;
		setTimeout(() => (isGroupAlive(pgid) ? this.kill(pgid) : this.forget(pgid)), graceMs).unref();
	}

	/** Kills every group of this set still tracked (SIGKILL). Synchronous, so it can run while the process exits. */
	killAll(): void {
		for (const pgid of [...this.groups]) this.kill(pgid);
	}

	/** Ids of the groups tracked (for diagnostics and tests). */
	tracked(): number[] {
		return [...this.groups];
	}

	private forget(pgid: number): void {
		this.groups.delete(pgid);
		this.within?.forget(pgid);
		if (this.groups.size === 0) live.delete(this);
	}
}
