// Diagnostics as the model reads them: `path:line:col message [code]` (1-based, the path as the session shows
// it), and which of a file's diagnostics are new compared with a baseline (matched by message and code, not by
// position: an edit above an old error moves it).
import type { Diagnostic } from "vscode-languageserver-protocol";

const ERROR = 1;
const WARNING = 2;
/** What a line says before its message, by severity: nothing for an error. */
const SEVERITY_LABELS: Record<number, string> = { 1: "", 2: "warning: ", 3: "info: ", 4: "hint: " };

/** The diagnostics worth telling about: errors (a server that gives no severity means one), warnings too when asked. */
export function reportable(diagnostics: readonly Diagnostic[], warnings: boolean): Diagnostic[] {
	return diagnostics.filter((diagnostic) => {
		const severity = diagnostic.severity ?? ERROR;
		return severity === ERROR || (warnings && severity === WARNING);
	});
}

/** Those of `after` not in `before`, each of `before` matching once. */
export function newDiagnostics(before: readonly Diagnostic[], after: readonly Diagnostic[]): Diagnostic[] {
	const left = new Map<string, number>();
	for (const diagnostic of before) left.set(key(diagnostic), (left.get(key(diagnostic)) ?? 0) + 1);
	return after.filter((diagnostic) => {
		const count = left.get(key(diagnostic)) ?? 0;
		if (count === 0) return true;
		left.set(key(diagnostic), count - 1);
		return false;
	});
}

function key(diagnostic: Diagnostic): string {
	return `${diagnostic.severity ?? ERROR}\0${diagnostic.code ?? ""}\0${diagnostic.message}`;
}

/** One line: `shown:line:col message [code]`, the message on one line. */
export function diagnosticLine(shown: string, diagnostic: Diagnostic): string {
	const { line, character } = diagnostic.range.start;
	const message = diagnostic.message.replace(/\s*\n\s*/g, " ").trim();
	const severity = SEVERITY_LABELS[diagnostic.severity ?? ERROR] ?? "";
	const code = diagnostic.code !== undefined && diagnostic.code !== "" ? ` [${diagnostic.code}]` : "";
	return `${shown}:${line + 1}:${character + 1} ${severity}${message}${code}`;
}

/** At most `max` lines, the last saying how many more there are. */
export function capped(lines: readonly string[], max: number): string[] {
	if (lines.length <= max) return [...lines];
	const kept = Math.max(0, max - 1);
	return [...lines.slice(0, kept), `… and ${lines.length - kept} more`];
}
