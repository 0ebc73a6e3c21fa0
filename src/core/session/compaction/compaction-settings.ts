// When to compact and how much to keep: the `compaction` settings and the threshold test.

export interface CompactionSettings {
	/** Compact automatically when the context nears the window (manual /compact works either way). */
	enabled: boolean;
	/** Tokens kept free below the context window for the next answer (and the summary itself). */
	reserveTokens: number;
	/** About this many tokens of the most recent conversation stay verbatim after compaction. */
	keepRecentTokens: number;
}

export const DEFAULT_COMPACTION_SETTINGS: Readonly<CompactionSettings> = Object.freeze({
	enabled: true,
	reserveTokens: 16384,
	keepRecentTokens: 20000,
});

/** Fills the missing fields of a settings.json `compaction` object with the defaults. */
export function resolveCompactionSettings(partial?: Partial<CompactionSettings>): CompactionSettings {
	return {
		enabled: partial?.enabled ?? DEFAULT_COMPACTION_SETTINGS.enabled,
		reserveTokens: partial?.reserveTokens ?? DEFAULT_COMPACTION_SETTINGS.reserveTokens,
		keepRecentTokens: partial?.keepRecentTokens ?? DEFAULT_COMPACTION_SETTINGS.keepRecentTokens,
	};
}

/**
 * The reserve actually applied. The default reserve (16k) is larger than a small local model's whole window
 * (say 8k): taken literally, every request would compact. So the reserve is capped at half the window.
 */
function effectiveReserveTokens(contextWindow: number, settings: Pick<CompactionSettings, "reserveTokens">): number {
	return Math.max(0, Math.min(settings.reserveTokens, Math.floor(contextWindow / 2)));
}

/**
 * The recent part actually kept. Capped at a quarter of the window, so that summary + kept part fit well under
 * the threshold and a compaction always frees room (else the next request would compact again at once).
 */
export function effectiveKeepRecentTokens(contextWindow: number, settings: Pick<CompactionSettings, "keepRecentTokens">): number {
	const cap = contextWindow > 0 ? Math.floor(contextWindow / 4) : settings.keepRecentTokens;
	return Math.max(0, Math.min(settings.keepRecentTokens, cap));
}

/** The context size above which automatic compaction runs. */
export function compactionThreshold(contextWindow: number, settings: Pick<CompactionSettings, "reserveTokens">): number {
	return contextWindow - effectiveReserveTokens(contextWindow, settings);
}

/** True when the next request's context would exceed `contextWindow − reserve` and compaction is enabled. */
export function shouldCompact(
	contextTokens: number,
	contextWindow: number,
	settings: CompactionSettings = DEFAULT_COMPACTION_SETTINGS,
): boolean {
	// An unknown window (0) gives no basis for a threshold; overflow recovery still covers that model.
	if (!settings.enabled || !(contextWindow > 0)) return false;
	return contextTokens > compactionThreshold(contextWindow, settings);
}
