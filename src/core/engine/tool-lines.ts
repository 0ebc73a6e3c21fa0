// Building blocks for the lines a tool row shows: pure, so a tool's presentation is testable without a screen.
import type { LineStyle, StyledLine } from "./tool-definition.js";

/** A row's argument summary is cut here; the row itself truncates to the terminal's width. */
const MAX_SUMMARY = 200;

/** Collapses whitespace so a multi-line value stays on one row, cut to `max` characters. */
export function oneLine(text: string, max = MAX_SUMMARY): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The last `count` lines of a text, without a trailing empty line. */
export function lastLines(text: string, count: number): string[] {
	if (count <= 0 || text === "") return [];
	const lines = text.replace(/\n+$/, "").split("\n");
	return lines.slice(Math.max(0, lines.length - count));
}

/** The last `count` lines in one style: output grows at the bottom, so the newest lines are the telling ones. */
export function tailLines(text: string | undefined, count: number, style: LineStyle): StyledLine[] {
	if (!text || count <= 0) return [];
	return lastLines(text, count).map((line) => ({ text: line, style }));
}

/** At most `max` lines, the last one saying how many were left out. */
export function capLines(lines: StyledLine[], max: number): StyledLine[] {
	if (lines.length <= max) return lines;
	if (max <= 0) return [];
	const kept = lines.slice(0, max - 1);
	return [...kept, { text: `… ${lines.length - kept.length} more lines`, style: "dim" }];
}
