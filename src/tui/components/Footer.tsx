import { Box, Text } from "ink";
import { showControls, stripToOneLine } from "../../core/text/sanitize-terminal.js";
import { fitFooterInfo } from "../footer-info.js";
import { formatCost, formatDuration, formatTokens, shortenPath } from "../format.js";
import type { ScreenView } from "../view-model.js";
import { spinnerFrame } from "../tool-row-text.js";

export interface FooterProps {
	view: Pick<ScreenView, "runStatus" | "turn" | "runStartedAt" | "usage" | "contextTokens" | "retry" | "compacting" | "session">;
	/** Context window of the current model in tokens, when known. */
	contextWindow?: number;
	now: number;
	width: number;
	home?: string;
}

/** Rows the footer takes: the retry line only while a retry waits. */
export function footerHeight(view: Pick<ScreenView, "retry">): number {
	return view.retry ? 3 : 2;
}

/** The run's state, as text parts for the footer's first line. */
function RunLine({ view, now }: Pick<FooterProps, "view" | "now">) {
	if (view.compacting) {
		return (
			<>
				<Text color="cyan">{spinnerFrame(now)}</Text> Compacting the conversation… <Text dimColor>· esc to interrupt</Text>
			</>
		);
	}
	if (view.runStatus === "idle") return <Text dimColor>ready</Text>;
	const elapsed = view.runStartedAt !== undefined ? ` · ${formatDuration(now - view.runStartedAt)}` : "";
	const turn = view.turn > 0 ? ` · turn ${view.turn}` : "";
	return (
		<>
			<Text color="cyan">{spinnerFrame(now)}</Text> {view.runStatus === "settling" ? "Finishing" : "Working"}
			<Text dimColor>
				{turn}
				{elapsed}
			</Text>
			<Text dimColor> · </Text>
			<Text bold>esc</Text>
			<Text dimColor> to interrupt</Text>
		</>
	);
}

/** The approval mode, coloured when the agent must ask or may only read; Shift+Tab changes it. */
function ApprovalMode({ mode }: { mode: string }) {
	return (
		<Text>
			<Text dimColor> · </Text>
			{mode === "auto" ? <Text dimColor>auto</Text> : <Text color="yellow">{mode}</Text>}
			<Text dimColor> (shift+tab)</Text>
		</Text>
	);
}

function contextColor(percent: number): string | undefined {
	if (percent >= 95) return "red";
	if (percent >= 80) return "yellow";
	return undefined;
}

export function Footer({ view, contextWindow, now, width, home }: FooterProps) {
	const { session, usage, retry } = view;
	const percent = contextWindow && view.contextTokens !== undefined ? Math.min(999, Math.round((view.contextTokens / contextWindow) * 100)) : undefined;
	const context = percent !== undefined ? ` · ctx ${percent}%` : undefined;
	// Names and paths from settings, models.json or the file system: shown as they are, controls written out.
	const info = fitFooterInfo(
		{
			model: session.model ? showControls(session.provider ? `${session.provider}/${session.model}` : session.model) : "no model",
			thinking: session.thinkingLevel ? `thinking ${session.thinkingLevel}` : undefined,
			directory: session.cwd ? showControls(shortenPath(session.cwd, home)) : undefined,
			tokens: `↑${formatTokens(usage.input + usage.cacheRead + usage.cacheWrite)} ↓${formatTokens(usage.output)}`,
			cost: formatCost(usage.cost),
			context,
		},
		width,
	);
	return (
		<Box flexDirection="column" width={width}>
			{retry ? (
				<Text color="yellow" wrap="truncate-end">
					⟳ Retrying in {Math.max(0, Math.ceil((retry.until - now) / 1000))}s (attempt {retry.attempt}/{retry.maxRetries}): {stripToOneLine(retry.reason)}
				</Text>
			) : null}
			{/* The mode sits on the short first line, so it is never cut off. */}
			<Text wrap="truncate-end">
				<RunLine view={view} now={now} />
				{session.approvalMode ? <ApprovalMode mode={session.approvalMode} /> : null}
			</Text>
			<Text wrap="truncate-end">
				<Text dimColor>{info}</Text>
				{percent !== undefined ? <Text color={contextColor(percent)} dimColor={contextColor(percent) === undefined}>{context}</Text> : null}
			</Text>
		</Box>
	);
}
