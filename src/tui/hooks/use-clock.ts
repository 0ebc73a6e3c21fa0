import { useCallback, useEffect, useRef, useState } from "react";

export interface Clock {
	now: number;
	/**
	 * Takes the time now and starts the next interval from here. Called together with another state
	 * update (a new view), the two make one render: a streaming screen is not drawn again for the clock.
	 */
	refresh(): void;
}

/** The current time, ticking every `intervalMs` only while `active` (spinners, elapsed times, countdowns). */
export function useClock(active: boolean, intervalMs: number): Clock {
	const [now, setNow] = useState(() => Date.now());
	const [wasActive, setWasActive] = useState(active);
	// Starting: take the time during this render, so the first frame of a countdown or an elapsed time is
	// not computed from when the clock last stopped (React re-renders before committing).
	if (active !== wasActive) {
		setWasActive(active);
		if (active) setNow(Date.now());
	}
	const timer = useRef<NodeJS.Timeout | undefined>(undefined);
	const running = useRef(active);
	running.current = active;

	const schedule = useCallback(() => {
		clearTimeout(timer.current);
		const tick = () => {
			setNow(Date.now());
			timer.current = setTimeout(tick, intervalMs);
		};
		timer.current = setTimeout(tick, intervalMs);
	}, [intervalMs]);

	useEffect(() => {
		if (!active) return;
		schedule();
		return () => clearTimeout(timer.current);
	}, [active, schedule]);

	const refresh = useCallback(() => {
		if (!running.current) return;
		setNow(Date.now());
		schedule();
	}, [schedule]);
	return { now, refresh };
}
