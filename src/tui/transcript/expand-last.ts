// Ctrl+O: what was cut short in the scrollback (a tool's output, a compaction summary, thinking, a shell
// command's output), found from the end of the transcript and made into an item that prints it whole. Lines
// already printed cannot change, so the full text is printed again below, where the terminal can scroll
// and search it. Pure.
import type { NewTranscriptItem, TranscriptItem } from "./view-model.js";

function expandedFrom(item: TranscriptItem): NewTranscriptItem | undefined {
	switch (item.kind) {
		case "tools": {
			const runs = item.runs.filter((run) => (run.resultText ?? "").trim() !== "");
			if (runs.length === 0) return undefined;
			const text = runs.map((run) => (runs.length > 1 ? `── ${run.name} ${run.argsPreview}\n${run.resultText}` : (run.resultText ?? ""))).join("\n");
			const title = runs.length > 1 ? `Output of ${runs.length} tool calls` : `Output of ${runs[0].name} ${runs[0].argsPreview}`;
			return { kind: "expanded", title, text };
		}
		case "thinking":
			return item.text.trim() === "" ? undefined : { kind: "expanded", title: "Thinking", text: item.text };
		case "notice":
			return item.detail ? { kind: "expanded", title: "Summary of the compacted conversation", text: item.detail } : undefined;
		case "shell":
			return { kind: "expanded", title: `Output of !${item.command}`, text: item.output === "" ? "(no output)" : item.output };
		default:
			return undefined;
	}
}

/** The newest expandable item of the transcript, in full; undefined when there is none. */
export function expandLast(transcript: readonly TranscriptItem[]): NewTranscriptItem | undefined {
	for (let i = transcript.length - 1; i >= 0; i--) {
		const item = transcript[i];
		if (item.kind === "expanded") continue;
		const expanded = expandedFrom(item);
		if (expanded) return expanded;
	}
	return undefined;
}
