import { useEffect, useState } from "react";

/** The current time, ticking every `intervalMs` only while `active` (spinners, elapsed times, countdowns). */
export function useClock(active: boolean, intervalMs: number): number {
	const [now, setNow] = useState(() => Date.now());
	const [wasActive, setWasActive] = useState(active);
	// Starting: take the time during this render, so the first frame of a countdown or an elapsed time is
	// not computed from when the clock last stopped (React re-renders before committing).
	if (active !== wasActive) {
		setWasActive(active);
		if (active) setNow(Date.now());
	}
	useEffect(() => {
		if (!active) return;
		const timer = setInterval(() => setNow(Date.now()), intervalMs);
		return () => clearInterval(timer);
	}, [active, intervalMs]);
	return now;
}
