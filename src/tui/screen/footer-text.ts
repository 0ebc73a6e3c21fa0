// What the footer says, from the view: its height, the run's state, the retry countdown and the info row with
// the context use. Pure; the Footer component only styles it.
import { showControls, stripToOneLine, formatCost, formatDuration, formatTokens } from "../../core/index.js";
import { fitFooterInfo, shortenPath } from "./footer-info.js";
import type { RetryView, ScreenView } from "../transcript/index.js";

/** What of the view the footer shows. */
export type FooterView = Pick<ScreenView, "runStatus" | "turn" | "runStartedAt" | "usage" | "contextTokens" | "retry" | "compacting" | "session">;

/** Rows the footer takes: the retry line only while a retry waits. */
export function footerHeight(view: Pick<ScreenView, "retry">): number {
	return view.retry ? 3 : 2;
}

/** The first row's subject: compacting, idle, or a run with its label and " · turn 2 · 5.0s". */
export type RunState = { kind: "compacting" } | { kind: "idle" } | { kind: "running"; label: "Working" | "Finishing"; detail: string };

export function runState(view: Pick<ScreenView, "compacting" | "runStatus" | "turn" | "runStartedAt">, now: number): RunState {
	if (view.compacting) return { kind: "compacting" };
	if (view.runStatus === "idle") return { kind: "idle" };
	const turn = view.turn > 0 ? ` · turn ${view.turn}` : "";
	const elapsed = view.runStartedAt !== undefined ? ` · ${formatDuration(now - view.runStartedAt)}` : "";
	return { kind: "running", label: view.runStatus === "settling" ? "Finishing" : "Working", detail: turn + elapsed };
}

/**
 * "⟳ Retry 2/3 in 4s: 529 overloaded": which retry of how many (as print mode's status line and the final
 * "gave up after 3 retries" count them), the reason on one line without escapes.
 */
export function retryText(retry: RetryView, now: number): string {
	const seconds = Math.max(0, Math.ceil((retry.until - now) / 1000));
	return `⟳ Retry ${retry.attempt}/${retry.maxRetries} in ${seconds}s: ${stripToOneLine(retry.reason)}`;
}

/** The second row: the info fitted to the width, then the context use (" · ctx 23%") in its own colour. */
export interface InfoRow {
	info: string;
	context?: string;
	/** Undefined: drawn dim, as the rest. */
	contextColor?: "red" | "yellow";
}

/** The context use's colour: yellow from 80%, red from 95%. */
export function contextColor(percent: number): "red" | "yellow" | undefined {
	if (percent >= 95) return "red";
	if (percent >= 80) return "yellow";
	return undefined;
}

export function infoRow(view: Pick<ScreenView, "usage" | "contextTokens" | "session">, width: number, contextWindow?: number, home?: string): InfoRow {
	const { session, usage } = view;
	const percent = contextWindow && view.contextTokens !== undefined ? Math.min(999, Math.round((view.contextTokens / contextWindow) * 100)) : undefined;
	const context = percent !== undefined ? ` · ctx ${percent}%` : undefined;
	// Names and paths from settings, models.json or the file system: shown as they are, controls written out.
	const info = fitFooterInfo(
		{
			model: session.model ? showControls(`${session.provider ? `${session.provider}/${session.model}` : session.model}${session.credential ? ` (${session.credential})` : ""}`) : "no model",
			thinking: session.thinkingLevel ? `thinking ${session.thinkingLevel}` : undefined,
			directory: session.cwd ? showControls(shortenPath(session.cwd, home)) : undefined,
			tokens: `↑${formatTokens(usage.input + usage.cacheRead + usage.cacheWrite)} ↓${formatTokens(usage.output)}`,
			cost: formatCost(usage.cost),
			context,
		},
		width,
	);
	if (percent === undefined) return { info };
	const color = contextColor(percent);
	return color ? { info, context, contextColor: color } : { info, context };
}
