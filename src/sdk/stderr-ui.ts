// The ui where nobody can be asked (print mode, an embedder that brings none): notices are lines on stderr,
// without the escape sequences an extension or a server may have put in them; questions get no answer.
import type { NoticeLevel } from "../core/index.js";
import { nonInteractiveUi, type SessionUi, stderrNotice } from "../core/index.js";

export function stderrUi(stream: NodeJS.WritableStream = process.stderr): SessionUi {
	return nonInteractiveUi((level: NoticeLevel, text: string) => stream.write(stderrNotice(level, text)));
}
