// How a notice (what the session tells the user: information, a warning, an error) reads, the one shape every
// channel draws it in: the screen's transcript marks it by level ("· text", "! text", "✗ text"); a plain-text
// channel (stderr, an editor's message) names the level unless it is information ("warning: text"); and a line on
// stderr starts with "loom: ", its text stripped of escape sequences.
import { stripControls } from "../lib/index.js";
import type { NoticeLevel } from "./session-ui.js";

/** The screen's mark before a notice of each level. */
export const NOTICE_MARK: Readonly<Record<NoticeLevel, string>> = { info: "·", warning: "!", error: "✗" };

/** A notice as plain text: the level named first, unless it is information. */
export function plainNotice(level: NoticeLevel, text: string): string {
	return level === "info" ? text : `${level}: ${text}`;
}

/** One message of loom's on stderr: "loom: " and the text, whose escape sequences go (tabs stay), and a newline. */
export function stderrLine(text: string): string {
	return `loom: ${stripControls(text, { keepTabs: true })}\n`;
}

/** A notice as a line on stderr: "loom: warning: text". */
export function stderrNotice(level: NoticeLevel, text: string): string {
	return stderrLine(plainNotice(level, text));
}
