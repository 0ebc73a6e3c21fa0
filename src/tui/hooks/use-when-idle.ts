import { useEffect, useRef } from "react";
import { useKeys } from "./use-keys.js";

export interface IdleOptions {
	/** The screen is busy (a run): wait for it to end. */
	busy: boolean;
	/** Quiet this long (no key pressed, not busy) before the task runs. */
	quietMs: number;
	/** Keys can be read (a terminal): they postpone the task. */
	inputActive: boolean;
}

/**
 * Runs `task` once, the first time the screen has been idle for `quietMs`: no key pressed and no run going on.
 * For work that blocks the screen for a while and can wait (loading the highlighter), so that it neither delays
 * the keys of someone typing nor the request of a prompt just sent.
 */
export function useWhenIdle(task: () => void, { busy, quietMs, inputActive }: IdleOptions): void {
	const lastKey = useRef(Date.now());
	const done = useRef(false);
	const latest = useRef(task);
	latest.current = task;
	useKeys(() => {
		lastKey.current = Date.now();
	}, inputActive && !done.current);
	useEffect(() => {
		if (busy || done.current) return;
		let timer: NodeJS.Timeout;
		const check = () => {
			const quiet = Date.now() - lastKey.current;
			if (quiet < quietMs) {
				timer = setTimeout(check, quietMs - quiet);
				return;
			}
			done.current = true;
			latest.current();
		};
		timer = setTimeout(check, quietMs);
		return () => clearTimeout(timer);
	}, [busy, quietMs]);
}
