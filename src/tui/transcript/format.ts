// Small formatters for numbers the screen shows; those the session's commands print too live in core.
export { formatCost, formatLocalMinute, formatTokens } from "../../core/index.js";

/** Elapsed time: tenths under ten seconds, then seconds, then minutes and seconds. */
export function formatDuration(ms: number): string {
	const safe = Math.max(0, ms);
	if (safe < 10_000) return `${(safe / 1000).toFixed(1)}s`;
	const seconds = Math.floor(safe / 1000);
	if (seconds < 60) return `${seconds}s`;
	return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;
}

/** Replaces the home directory with ~ so the footer stays short. */
export function shortenPath(path: string, home: string | undefined): string {
	if (home && home !== "/" && (path === home || path.startsWith(`${home}/`))) return `~${path.slice(home.length)}`;
	return path;
}
