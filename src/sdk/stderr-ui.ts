// The ui where nobody can be asked (print mode, an embedder that brings none): notices are lines on stderr,
// without the escape sequences an extension or a server may have put in them; questions get no answer.
import type { NoticeLevel } from "../core/session/index.js";
import { nonInteractiveUi, type SessionUi } from "../core/session/index.js";
import { stripControls } from "../core/text/sanitize-terminal.js";

export function stderrUi(stream: NodeJS.WritableStream = process.stderr): SessionUi {
	return nonInteractiveUi((level: NoticeLevel, text: string) => {
		const prefix = level === "info" ? "loom: " : `loom: ${level}: `;
		stream.write(`${prefix}${stripControls(text, { keepTabs: true })}\n`);
	});
}
