// A tool row as styled text: the header (status glyph, name, arguments, time) and the colours of its result
// lines. Shared by the live ToolRow component and the printed transcript, so both look the same. Here the
// model's and the tool's text is made safe to draw: the header shows what runs with its control characters
// written out, result lines lose theirs; loom's colours are added after.
import chalk from "chalk";
import { findTool, type LineStyle, type NamedToolPresentation, type StyledLine, toolResultLines } from "../core/tool-definition.js";
import { showControls, stripControls } from "../core/text/sanitize-terminal.js";
import { formatDuration } from "./format.js";
import type { ToolRunView, ToolStatus } from "./view-model.js";

export const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
export const SPINNER_INTERVAL_MS = 80;

export function spinnerFrame(now: number): string {
	return SPINNER_FRAMES[Math.floor(now / SPINNER_INTERVAL_MS) % SPINNER_FRAMES.length];
}

export function statusGlyph(status: ToolStatus, now: number): string {
	switch (status) {
		case "preparing":
			return chalk.yellow(spinnerFrame(now));
		case "waiting":
			return chalk.yellow("?");
		case "running":
			return chalk.cyan(spinnerFrame(now));
		case "done":
			return chalk.green("✓");
		case "error":
			return chalk.red("✗");
	}
}

/** "✓ bash npm test 1.2s": glyph, bold name, the arguments' preview, then the time (dimmed). */
export function toolRowHeader(run: ToolRunView, now: number): string {
	const settled = run.status === "done" || run.status === "error";
	const elapsed = (settled ? (run.endedAt ?? now) : now) - run.startedAt;
	let header = `${statusGlyph(run.status, now)} ${chalk.bold(showControls(run.name))}`;
	if (run.argsPreview) header += ` ${showControls(run.argsPreview)}`;
	if (run.status === "waiting") header += chalk.yellow(" waiting for approval");
	else if (!run.untimed) header += chalk.dim(` ${run.status === "preparing" ? "preparing " : ""}${formatDuration(elapsed)}`);
	return header;
}

/** Lines under a row's header, at most `max`: drawn by its tool's definition among `tools`, or generically. */
export function toolRowLines(run: ToolRunView, max: number, tools: readonly NamedToolPresentation[]): StyledLine[] {
	return toolResultLines(findTool(tools, run.name), run, max);
}

const STYLES: Record<LineStyle, (text: string) => string> = {
	plain: (text) => text,
	dim: chalk.dim,
	added: chalk.green,
	removed: chalk.red,
	hunk: chalk.cyan,
	ok: chalk.green,
	error: chalk.red,
	warning: chalk.yellow,
};

/** A result line in its colour, without the escape sequences of its text; an empty line stays one (blank) row. */
export function styledLineText(line: StyledLine): string {
	const text = stripControls(line.text);
	return text === "" ? " " : STYLES[line.style](text);
}
