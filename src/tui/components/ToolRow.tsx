import { Box, Text } from "ink";
import { formatDuration } from "../format.js";
import { toolResultLines } from "../tool-result-lines.js";
import type { ToolRunView } from "../view-model.js";
import { StatusGlyph } from "./StatusGlyph.js";
import { StyledLines } from "./StyledLines.js";

export interface ToolRowProps {
	run: ToolRunView;
	/** Clock for the spinner and the elapsed time of a row still working. */
	now: number;
	/** Rows allowed under the header. */
	maxResultLines: number;
	/** In the live area every line is cut to one terminal row, so the area's height is known. */
	live?: boolean;
}

export function ToolRow({ run, now, maxResultLines, live = false }: ToolRowProps) {
	const settled = run.status === "done" || run.status === "error";
	const elapsed = (settled ? (run.endedAt ?? now) : now) - run.startedAt;
	const lines = toolResultLines(run, maxResultLines);
	return (
		<Box flexDirection="column">
			<Text wrap="truncate-end">
				<StatusGlyph status={run.status} now={now} /> <Text bold>{run.name}</Text>
				{run.argsPreview ? <Text> {run.argsPreview}</Text> : null}
				{run.untimed ? null : (
					<Text dimColor>
						{" "}
						{run.status === "preparing" ? "preparing " : ""}
						{formatDuration(elapsed)}
					</Text>
				)}
			</Text>
			<StyledLines lines={lines} indent={2} truncate={live} />
		</Box>
	);
}
