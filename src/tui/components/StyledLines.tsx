import { Box, Text } from "ink";
import type { LineStyle, StyledLine } from "../tool-result-lines.js";

const STYLE: Record<LineStyle, { color?: string; dimColor?: boolean }> = {
	plain: {},
	dim: { dimColor: true },
	added: { color: "green" },
	removed: { color: "red" },
	hunk: { color: "cyan" },
	ok: { color: "green" },
	error: { color: "red" },
	warning: { color: "yellow" },
};

export interface StyledLinesProps {
	lines: StyledLine[];
	/** Left margin in columns. */
	indent?: number;
	/** Truncate each line to one row (live area) instead of wrapping (transcript). */
	truncate?: boolean;
}

export function StyledLines({ lines, indent = 0, truncate = false }: StyledLinesProps) {
	if (lines.length === 0) return null;
	return (
		<Box flexDirection="column" marginLeft={indent}>
			{lines.map((line, index) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity beyond their position
				<Text key={index} {...STYLE[line.style]} wrap={truncate ? "truncate-end" : "wrap"}>
					{line.text === "" ? " " : line.text}
				</Text>
			))}
		</Box>
	);
}
