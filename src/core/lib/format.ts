// Formatters for what a person reads: the screen's footer and elapsed times, session commands, session lists,
// and byte counts in messages to the model and to the user alike.

/** "512 B", "1.5 KB", "2.0 MB", "1.2 GB" (binary units). */
export function formatSize(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
	return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`;
}

/** "1 file", "3 files"; "2 matches" with the plural given. */
export function formatCount(n: number, noun: string, plural = `${noun}s`): string {
	return `${n} ${n === 1 ? noun : plural}`;
}

export function formatTokens(count: number): string {
	if (count < 1000) return String(Math.round(count));
	if (count < 10_000) return `${(count / 1000).toFixed(1)}k`;
	if (count < 1_000_000) return `${Math.round(count / 1000)}k`;
	return `${(count / 1_000_000).toFixed(1)}M`;
}

export function formatCost(dollars: number): string {
	if (dollars <= 0) return "$0.00";
	if (dollars < 0.01) return `$${dollars.toFixed(4)}`;
	return `$${dollars.toFixed(2)}`;
}

/** Elapsed time: tenths under ten seconds, then seconds, then minutes and seconds. */
export function formatDuration(ms: number): string {
	const safe = Math.max(0, ms);
	if (safe < 10_000) return `${(safe / 1000).toFixed(1)}s`;
	const seconds = Math.floor(safe / 1000);
	if (seconds < 60) return `${seconds}s`;
	return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;
}

/** "2025-05-06 09:08" in the user's time zone: session lists are read by a person, whose clock is local. */
export function formatLocalMinute(date: Date): string {
	const pad = (n: number) => String(n).padStart(2, "0");
	return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** "2026-05-06", the user's local date. */
export function formatLocalDate(date: Date): string {
	return formatLocalMinute(date).slice(0, 10);
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** Older than this, a time is given as its date. */
const RELATIVE_DAYS = 7;

/** How long ago, short ("just now", "5m ago", "2h ago", "3d ago"); the local date once a week or more ago. */
export function formatRelativeTime(date: Date, now = new Date()): string {
	const elapsed = now.getTime() - date.getTime();
	if (elapsed < MINUTE_MS) return "just now";
	if (elapsed < HOUR_MS) return `${Math.floor(elapsed / MINUTE_MS)}m ago`;
	if (elapsed < DAY_MS) return `${Math.floor(elapsed / HOUR_MS)}h ago`;
	if (elapsed < RELATIVE_DAYS * DAY_MS) return `${Math.floor(elapsed / DAY_MS)}d ago`;
	return formatLocalDate(date);
}
