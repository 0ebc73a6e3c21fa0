// As the process exits, Node puts each standard stream that was a terminal at start back into its start-up mode,
// and aborts (exit 134) when that fails, as it does once the terminal has gone away (EIO after a hang-up; Node
// before 24, nodejs/node#51519). A stream whose terminal is gone is pointed at /dev/null first: Node takes it for
// one the program reopened and leaves it alone.
import { closeSync, openSync } from "node:fs";
import { isatty } from "node:tty";

/** The standard streams that were terminals when loom started. */
export const startedAsTerminals: readonly number[] = [0, 1, 2].filter((fd) => isatty(fd));

/** For the process's exit: each standard stream whose terminal went away (no longer answers as one) is detached. */
export function detachGoneTerminal(): void {
	for (const fd of startedAsTerminals) {
		if (isatty(fd)) continue;
		try {
			closeSync(fd);
			// The lowest free descriptor: `fd` itself, the ones below it being open.
			const opened = openSync("/dev/null", fd === 0 ? "r" : "w");
			if (opened !== fd) closeSync(opened);
		} catch {
			// Leaving: nothing can be reported, and the other streams must still be detached.
		}
	}
}
