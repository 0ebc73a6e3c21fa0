import { Text } from "ink";
import { formatDuration, showControls } from "../../core/index.js";
import { spinnerFrame } from "../transcript/index.js";

export interface ShellRowProps {
	/** The `!command` running. */
	command: string;
	startedAt: number;
	now: number;
}

/** One row while a `!command` runs: what runs, for how long, and how to stop it. */
export function ShellRow({ command, startedAt, now }: ShellRowProps) {
	return (
		<Text wrap="truncate-end">
			<Text color="magenta">{spinnerFrame(now)}</Text> !{showControls(command)}
			<Text dimColor>
				{" "}
				{formatDuration(now - startedAt)} · esc stops it
			</Text>
		</Text>
	);
}
