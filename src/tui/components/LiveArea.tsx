import { Box, Text } from "ink";
import { useMemo } from "react";
import type { NamedToolPresentation } from "../../core/tool-definition.js";
import { showControls, stripControls } from "../../core/text/sanitize-terminal.js";
import { planToolRows } from "../live-layout.js";
import { renderMarkdown } from "../markdown.js";
import { openFenceLine } from "../paragraph-split.js";
import type { ActiveAssistant, ToolRunView } from "../view-model.js";
import { formatSize } from "../../core/format.js";
import { lastRows } from "../wrap.js";
import { spinnerFrame } from "../tool-row-text.js";
import { ToolRow } from "./ToolRow.js";

export interface LiveAreaProps {
	active?: ActiveAssistant;
	runs: ToolRunView[];
	now: number;
	width: number;
	/** Terminal rows this area may take, all included. */
	budget: number;
	/** The session's tool presentations, for the rows. */
	tools?: readonly NamedToolPresentation[];
}

const THINKING_ROWS = 3;

/**
 * The tail of a streaming answer as terminal rows: only the last source lines are rendered (the finished
 * paragraphs already left for the scrollback); a cut inside a code fence re-opens the fence first. The
 * model's escape sequences are stripped before the markdown is styled.
 */
export function streamingRows(tail: string, width: number, maxRows: number): string[] {
	if (maxRows <= 0 || tail.trim() === "") return [];
	// Cut by lines, then by characters (one long paragraph), keeping well over what the rows can show.
	const keepLines = maxRows * 2 + 2;
	const keepChars = maxRows * width * 2 + 256;
	let cut = 0;
	let newlines = 0;
	for (let i = tail.length - 1; i >= 0; i--) {
		if (tail.charCodeAt(i) === 10 && ++newlines === keepLines) {
			cut = i + 1;
			break;
		}
	}
	if (tail.length - cut > keepChars) {
		const space = tail.indexOf(" ", tail.length - keepChars);
		cut = space === -1 ? tail.length - keepChars : space + 1;
	}
	let source = tail;
	if (cut > 0) {
		const fence = openFenceLine(tail.slice(0, cut));
		source = (fence !== undefined ? `${fence}\n` : "") + tail.slice(cut);
	}
	return lastRows(renderMarkdown(stripControls(source), width), width, maxRows).rows;
}

function Rows({ rows, dim = false }: { rows: string[]; dim?: boolean }) {
	return (
		<>
			{rows.map((row, index) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: rows are positions
				<Text key={index} wrap="truncate-end" dimColor={dim} italic={dim}>
					{row === "" ? " " : row}
				</Text>
			))}
		</>
	);
}

/** What is happening now: the streaming answer's tail and the current tool batch, capped to `budget` rows. */
export function LiveArea({ active, runs, now, width, budget, tools = [] }: LiveAreaProps) {
	const pending = active?.pendingToolCall;
	const hasText = active !== undefined && active.tail.trim() !== "";
	const hasThinking = active !== undefined && active.thinking.trim() !== "";
	const margin = 1;
	let room = budget - margin;
	const pendingRows = pending && room > 0 ? 1 : 0;
	room -= pendingRows;
	const plan = planToolRows(runs, room, tools);
	room -= plan.height;
	const thinkingRows = hasThinking ? Math.max(0, Math.min(hasText ? 1 : THINKING_ROWS, room)) : 0;
	room -= thinkingRows;
	const textRows = hasText ? Math.max(0, room) : 0;

	const thinking = useMemo(
		() => (hasThinking && thinkingRows > 0 ? lastRows(`✻ ${stripControls(active?.thinking.trim() ?? "")}`, width, thinkingRows).rows : []),
		[hasThinking, thinkingRows, active?.thinking, width],
	);
	const text = useMemo(() => (hasText ? streamingRows(active?.tail ?? "", width, textRows) : []), [hasText, active?.tail, width, textRows]);

	if (budget <= margin || (!active && runs.length === 0)) return null;
	if (thinking.length === 0 && text.length === 0 && pendingRows === 0 && plan.rows.length === 0 && plan.hidden === 0) return null;
	return (
		<Box flexDirection="column" marginTop={margin} width={width}>
			<Rows rows={thinking} dim />
			<Rows rows={text} />
			{pendingRows > 0 && pending ? (
				<Text wrap="truncate-end" dimColor>
					<Text color="yellow">{spinnerFrame(now)}</Text> {showControls(pending.name)} call being written
					{pending.chars > 0 ? ` (${formatSize(pending.chars)})` : ""}
				</Text>
			) : null}
			{plan.rows.map(({ run, resultLines }) => (
				<ToolRow key={run.id} run={run} now={now} maxResultLines={resultLines} live tools={tools} width={width} />
			))}
			{plan.hidden > 0 ? <Text dimColor>… {plan.hidden} more tool calls</Text> : null}
		</Box>
	);
}
