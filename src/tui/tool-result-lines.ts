// What a tool row shows under its header, as plain styled lines (one terminal row each in the live area).
// Per tool: bash the last lines of output and the exit status, read the lines read, edit the diff,
// write the bytes written, errors in red. Pure, so each state is testable without rendering.
import { formatSize } from "../core/format-size.js";
import { lastLines } from "./message-text.js";
import type { ToolRunView } from "./view-model.js";

export type LineStyle = "plain" | "dim" | "added" | "removed" | "hunk" | "ok" | "error" | "warning";

export interface StyledLine {
	text: string;
	style: LineStyle;
}

export const BASH_LIVE_LINES = 5;

function capped(lines: StyledLine[], max: number): StyledLine[] {
	if (lines.length <= max) return lines;
	if (max <= 0) return [];
	const kept = lines.slice(0, max - 1);
	return [...kept, { text: `… ${lines.length - kept.length} more lines`, style: "dim" }];
}

/** The last `count` lines: output grows at the bottom, so the newest lines are the telling ones. */
function tail(text: string | undefined, count: number, style: LineStyle): StyledLine[] {
	if (!text || count <= 0) return [];
	return lastLines(text, count).map((line) => ({ text: line, style }));
}

/** A unified diff's lines, from the first hunk on (the file header says nothing the row does not). */
export function diffLines(diff: string): StyledLine[] {
	const lines = diff.replace(/\n+$/, "").split("\n");
	const firstHunk = lines.findIndex((line) => line.startsWith("@@"));
	return lines
		.slice(Math.max(0, firstHunk))
		.map((line) => {
			if (line.startsWith("+++") || line.startsWith("---")) return { text: line, style: "dim" as const };
			if (line.startsWith("+")) return { text: line, style: "added" as const };
			if (line.startsWith("-")) return { text: line, style: "removed" as const };
			if (line.startsWith("@@")) return { text: line, style: "hunk" as const };
			return { text: line, style: "dim" as const };
		});
}

function bashStatus(run: ToolRunView): StyledLine | undefined {
	const d = run.details ?? {};
	const notes: string[] = [];
	if (d.truncated && d.fullOutputPath) notes.push(`full output: ${d.fullOutputPath}`);
	const suffix = notes.length > 0 ? ` · ${notes.join(" · ")}` : "";
	if (d.timedOut) return { text: `timed out${suffix}`, style: "error" };
	if (d.aborted) return { text: `interrupted${suffix}`, style: "warning" };
	if (d.signal) return { text: `killed by ${d.signal}${suffix}`, style: "error" };
	if (d.exitCode !== undefined) return { text: `exit ${d.exitCode}${suffix}`, style: d.exitCode === 0 ? "ok" : "error" };
	return suffix ? { text: suffix.slice(3), style: "dim" } : undefined;
}

function readSummary(run: ToolRunView): string {
	const d = run.details ?? {};
	if (d.kind === "image") return "read image";
	if (d.startLine !== undefined && d.endLine !== undefined) {
		if (d.endLine < d.startLine) return "no lines read";
		const count = d.endLine - d.startLine + 1;
		const of = d.totalLines !== undefined ? ` of ${d.totalLines}` : "";
		return `read ${count} line${count === 1 ? "" : "s"} (${d.startLine}-${d.endLine}${of})`;
	}
	const count = (run.resultText ?? "").replace(/\n+$/, "").split("\n").filter((line, i, all) => line !== "" || all.length > 1).length;
	return `read ${count} line${count === 1 ? "" : "s"}`;
}

function doneLines(run: ToolRunView, max: number): StyledLine[] {
	const d = run.details ?? {};
	switch (run.name) {
		case "bash": {
			const status = bashStatus(run);
			const output = tail(run.resultText, Math.min(BASH_LIVE_LINES, status ? max - 1 : max), "dim");
			return status ? [...output, status] : output;
		}
		case "read":
			return [{ text: readSummary(run), style: "dim" }];
		case "edit":
			if (d.diff) return capped(diffLines(d.diff), max);
			return tail(run.resultText, Math.min(3, max), "dim");
		case "write":
			if (d.bytes !== undefined) return [{ text: `wrote ${formatSize(d.bytes)}`, style: "dim" }];
			return tail(run.resultText, 1, "dim");
		default:
			return capped(
				(run.resultText ?? "")
					.replace(/\n+$/, "")
					.split("\n")
					.filter((line) => line !== "")
					.map((text) => ({ text, style: "dim" as const })),
				Math.min(3, max),
			);
	}
}

/** Lines under a row's header, at most `max` of them. */
export function toolResultLines(run: ToolRunView, max: number): StyledLine[] {
	if (max <= 0) return [];
	switch (run.status) {
		case "preparing":
			return [];
		case "running":
			return tail(run.progressText, run.name === "bash" ? Math.min(BASH_LIVE_LINES, max) : 1, "dim");
		case "error": {
			const status = run.name === "bash" ? bashStatus(run) : undefined;
			const budget = Math.min(BASH_LIVE_LINES, status ? max - 1 : max);
			const text = run.resultText && run.resultText.trim() !== "" ? run.resultText : "failed (no message)";
			const lines = tail(text, budget, "error");
			return status && status.text !== "" ? [...lines, { ...status, style: "error" }] : lines;
		}
		case "done":
			return doneLines(run, max);
	}
}
