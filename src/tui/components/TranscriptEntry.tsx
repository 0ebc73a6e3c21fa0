import { Box } from "ink";
import type { TranscriptItem } from "../view-model.js";
import { Markdown } from "./Markdown.js";
import { Notice } from "./Notice.js";
import { Thinking } from "./Thinking.js";
import { ToolRow } from "./ToolRow.js";
import { UserPrompt } from "./UserPrompt.js";

/** Rows a finished diff or output may take in the scrollback before "… N more lines". */
export const TRANSCRIPT_RESULT_LINES = 20;

export interface TranscriptEntryProps {
	item: TranscriptItem;
	width: number;
	showThinking: boolean;
}

function body({ item, width, showThinking }: TranscriptEntryProps) {
	switch (item.kind) {
		case "user":
			return <UserPrompt text={item.text} />;
		case "assistant":
			return <Markdown text={item.text} width={width} />;
		case "thinking":
			return <Thinking text={item.text} redacted={item.redacted} expanded={showThinking} />;
		case "tools":
			return (
				<Box flexDirection="column">
					{item.runs.map((run) => (
						<ToolRow key={run.id} run={run} now={run.endedAt ?? run.startedAt} maxResultLines={TRANSCRIPT_RESULT_LINES} />
					))}
				</Box>
			);
		case "notice":
			return <Notice level={item.level} text={item.text} />;
	}
}

/** One finished item of the transcript; printed once into the scrollback. */
export function TranscriptEntry(props: TranscriptEntryProps) {
	return (
		<Box flexDirection="column" marginTop={1} width={props.width}>
			{body(props)}
		</Box>
	);
}
