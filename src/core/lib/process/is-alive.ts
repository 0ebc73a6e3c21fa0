// Whether a process (or a process group) still exists, asked with signal 0, which tests without sending.

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
