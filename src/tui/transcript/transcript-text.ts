// The transcript as the text printed into the terminal's scrollback, once per item. Printed directly rather
// than through Ink's <Static>: Ink builds a cell-by-cell frame of everything static, which cost more CPU on
// a long answer than everything else on the screen together. Pure: an item and a width give the exact text.
// Lines already printed cannot change, so what is cut short here is printed again whole on Ctrl+O (expandLast).
import chalk from "chalk";
import { formatCount, NOTICE_MARK, sourceLines, stripControls } from "../../core/index.js";
import type { NamedToolPresentation, NoticeLevel } from "../../core/index.js";
import { noticeRows, renderMarkdown, truncateRow, wrapRows } from "../text/index.js";
import { styledLineText, toolRowHeader, toolRowLines } from "./tool-row-text.js";
import type { NewTranscriptItem, ToolRunView, TranscriptItem } from "./view-model.js";

/** Rows a finished diff or output may take in the scrollback before "… N more lines". */
export const TRANSCRIPT_RESULT_LINES = 20;

const RESULT_INDENT = "  ";

/**
 * The text written for `items`: each is preceded by a blank line (except an answer's chunk that continues
 * the one before) and every row ends with a newline.
 * `tools`: the session's tool presentations, which draw their rows' result lines.
 */
export function transcriptText(
	items: readonly TranscriptItem[],
	width: number,
	showThinking: boolean,
	tools: readonly NamedToolPresentation[] = [],
): string {
	let out = "";
	for (const item of items) {
		if (!(item.kind === "assistant" && item.continues)) out += "\n";
		// Trailing blanks are dropped, as Ink does for its own rows.
		for (const row of transcriptRows(item, width, showThinking, tools)) out += `${row.trimEnd()}\n`;
	}
	return out;
}

/** The terminal rows of one item, none wider than `width`. Outside text loses its escape sequences first. */
export function transcriptRows(item: TranscriptItem, width: number, showThinking: boolean, tools: readonly NamedToolPresentation[] = []): string[] {
	const columns = Math.max(1, width);
	switch (item.kind) {
		case "user":
			return [
				...userRows(stripControls(item.text), columns),
				...(item.attached ?? []).flatMap((file) => wrapRows(chalk.dim(`  attached ${stripControls(file)}`), columns)),
			];
		case "assistant": {
			const rendered = renderMarkdown(stripControls(item.text).replace(/\s+$/, ""), columns);
			return rendered === "" ? [] : wrapRows(rendered, columns);
		}
		case "thinking":
			return wrapRows(chalk.dim.italic(thinkingLine(stripControls(item.text), item.redacted, showThinking)), columns);
		case "tools":
			return item.runs.flatMap((run) => toolRows(run, columns, tools));
		case "notice":
			return noticeText(item, columns);
		case "sources":
			return sourceLines(item.search).flatMap((line, index) => wrapRows(index === 0 && item.search.queries.length > 0 ? chalk.dim(`⌕ ${stripControls(line)}`) : `  ${chalk.cyan(stripControls(line))}`, columns));
		case "shell":
			return shellRows(item, columns);
		case "expanded":
			return [...wrapRows(chalk.cyan.bold(`▾ ${stripControls(item.title)}`), columns), ...wrapRows(stripControls(item.text).replace(/\n+$/, ""), columns)];
	}
}

/** "· the notice", its later rows hung under its text. */
function noticeText(item: Extract<TranscriptItem, { kind: "notice" }>, columns: number): string[] {
	const text = `${stripControls(item.text)}${item.detail ? " · ctrl+o shows it" : ""}`;
	const mark = `${NOTICE_MARK[item.level]} `;
	const style = NOTICE_STYLE[item.level];
	if (columns <= mark.length) return noticeRows(mark + text, columns).map(style);
	const hang = " ".repeat(mark.length);
	return noticeRows(text, columns - mark.length).map((row, index) => style(index === 0 ? mark + row : row === "" ? "" : hang + row));
}

/** "› the prompt" in bold, continuation rows indented under the text. */
function userRows(text: string, width: number): string[] {
	const marker = chalk.magenta.bold("› ");
	if (width <= 2) return [marker, ...wrapRows(chalk.bold(text), width)];
	const rows = wrapRows(chalk.bold(text), width - 2);
	if (rows.length === 0) return [marker];
	return rows.map((row, index) => (index === 0 ? marker : "  ") + row);
}

function thinkingLine(text: string, redacted: boolean, expanded: boolean): string {
	const trimmed = text.trim();
	if (redacted && trimmed === "") return "✻ Thinking (redacted by the provider)";
	if (!expanded) {
		const lines = trimmed.split("\n").length;
		return `✻ Thinking · ${formatCount(lines, "line")} (ctrl+t to show)`;
	}
	return `✻ ${trimmed}`;
}

const NOTICE_STYLE: Readonly<Record<NoticeLevel, (text: string) => string>> = { error: chalk.red, warning: chalk.yellow, info: chalk.dim };

/** "$ command", then the output's last lines (Ctrl+O shows all), and the exit status when it failed. */
function shellRows(item: Extract<TranscriptItem, { kind: "shell" }>, width: number): string[] {
	const header = `${chalk.magenta.bold("!")} ${chalk.bold(stripControls(item.command))}${item.forContext ? chalk.dim(" · added to your next prompt") : ""}`;
	const rows = wrapRows(header, width);
	const lines = stripControls(item.output).replace(/\n+$/, "").split("\n");
	const shown = lines.length > TRANSCRIPT_RESULT_LINES ? lines.slice(-TRANSCRIPT_RESULT_LINES) : lines;
	const inner = Math.max(1, width - RESULT_INDENT.length);
	if (shown.length < lines.length) rows.push(RESULT_INDENT + chalk.dim(`… ${lines.length - shown.length} earlier lines (ctrl+o shows all)`));
	if (item.output !== "") for (const row of wrapRows(shown.join("\n"), inner)) rows.push(RESULT_INDENT + row);
	// Worded as the bash tool row words it.
	if (item.exitCode !== 0) rows.push(RESULT_INDENT + chalk.red(item.exitCode === null ? "interrupted" : `exit ${item.exitCode}`));
	return rows;
}

/** A finished tool row: its header on one row, then its result lines wrapped under it. */
function toolRows(run: ToolRunView, width: number, tools: readonly NamedToolPresentation[]): string[] {
	const rows = [truncateRow(toolRowHeader(run, run.endedAt ?? run.startedAt, width), width)];
	const inner = Math.max(1, width - RESULT_INDENT.length);
	for (const line of toolRowLines(run, TRANSCRIPT_RESULT_LINES, tools)) {
		for (const row of wrapRows(styledLineText(line), inner)) rows.push(RESULT_INDENT + row);
	}
	return rows;
}

/** A run's result in full; a subagent's (the task tool's) after the calls it made, one a line. */
function runText(run: ToolRunView): string {
	const details = run.details as { calls?: unknown; subagent?: unknown } | undefined;
	const calls = details?.calls;
	if (!details?.subagent || !Array.isArray(calls) || calls.length === 0) return run.resultText ?? "";
	const lines = calls.map((call: { name?: unknown; summary?: unknown; status?: unknown }) => `${call?.status === "error" ? "✗" : "✓"} ${String(call?.name ?? "tool")} ${String(call?.summary ?? "")}`.trimEnd());
	return `${lines.join("\n")}\n\n${run.resultText ?? ""}`;
}

/**
 * Ctrl+O: what was cut short in the scrollback (a tool's output, a compaction summary, thinking, a shell
 * command's output), as an item that prints it whole below, where the terminal can scroll and search it.
 */
function expandedFrom(item: TranscriptItem): NewTranscriptItem | undefined {
	switch (item.kind) {
		case "tools": {
			const runs = item.runs.filter((run) => (run.resultText ?? "").trim() !== "");
			if (runs.length === 0) return undefined;
			const text = runs.map((run) => (runs.length > 1 ? `── ${run.name} ${run.argsPreview}\n${runText(run)}` : runText(run))).join("\n");
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
