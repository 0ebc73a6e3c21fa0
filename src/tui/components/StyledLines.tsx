import { Box, Text } from "ink";
import type { StyledLine } from "../../core/index.js";
import { styledLineText } from "../transcript/index.js";

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
				<Text key={index} wrap={truncate ? "truncate-end" : "wrap"}>
					{styledLineText(line)}
				</Text>
			))}
		</Box>
	);
}
