import { Box, Text } from "ink";
import { useMemo } from "react";
import type { NamedToolPresentation } from "../../core/index.js";
import { planLiveArea, pendingCallText, streamingRows, thinkingRows } from "../screen/index.js";
import { spinnerFrame } from "../transcript/index.js";
import type { ActiveAssistant, ToolRunView } from "../transcript/index.js";
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
	const plan = planLiveArea({ budget, pending: pending !== undefined, hasThinking, hasText, runs, tools });

	const thinking = useMemo(() => thinkingRows(active?.thinking ?? "", width, plan.thinkingRows), [plan.thinkingRows, active?.thinking, width]);
	const text = useMemo(() => (hasText ? streamingRows(active?.tail ?? "", width, plan.textRows) : []), [hasText, active?.tail, width, plan.textRows]);

	if (budget <= plan.margin || (!active && runs.length === 0)) return null;
	if (thinking.length === 0 && text.length === 0 && plan.pendingRows === 0 && plan.tools.rows.length === 0 && plan.tools.hidden === 0) return null;
	return (
		<Box flexDirection="column" marginTop={plan.margin} width={width}>
			<Rows rows={thinking} dim />
			<Rows rows={text} />
			{plan.pendingRows > 0 && pending ? (
				<Text wrap="truncate-end" dimColor>
					<Text color="yellow">{spinnerFrame(now)}</Text> {pendingCallText(pending)}
				</Text>
			) : null}
			{plan.tools.rows.map(({ run, lines }) => (
				<ToolRow key={run.id} run={run} now={now} lines={lines} live width={width} />
			))}
			{plan.tools.hidden > 0 ? <Text dimColor>… {plan.tools.hidden} more tool calls</Text> : null}
		</Box>
	);
}
