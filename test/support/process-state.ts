// Whether a process a test started still runs. A process that has exited but is not yet reaped is a zombie: it
// still answers kill(pid, 0), and an orphan's zombie waits for PID 1, which in some containers and VMs reaps only
// every second or two. A zombie runs nothing, so it counts as gone.
import { existsSync, readFileSync } from "node:fs";
import { isAlive } from "../../src/core/lib/process/index.js";

const HAS_PROC = existsSync("/proc/self/stat");

/** True while `pid` exists and is not a zombie (by /proc where there is one; elsewhere, while it exists). */
export function isRunning(pid: number): boolean {
	if (!isAlive(pid)) return false;
	if (!HAS_PROC) return true;
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
	} catch {
		// Reaped between the two looks.
		return false;
	}
}
