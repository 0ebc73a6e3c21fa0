import { useEffect, useState } from "react";

/** The current time, ticking every `intervalMs` only while `active` (spinners, elapsed times, countdowns). */
export function useClock(active: boolean, intervalMs: number): number {
	const [now, setNow] = useState(() => Date.now());
	useEffect(() => {
		if (!active) return;
		setNow(Date.now());
		const timer = setInterval(() => setNow(Date.now()), intervalMs);
		return () => clearInterval(timer);
	}, [active, intervalMs]);
	return now;
}
