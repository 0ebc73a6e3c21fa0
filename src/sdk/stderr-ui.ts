// The ui where nobody can be asked (print mode, an embedder that brings none): notices are lines on stderr,
// without the escape sequences an extension or a server may have put in them; questions get no answer.
import type { NoticeLevel } from "../core/session/index.js";
import { nonInteractiveUi, type SessionUi } from "../core/session/index.js";
import { stderrNotice } from "../core/session/notice-text.js";

export function stderrUi(stream: NodeJS.WritableStream = process.stderr): SessionUi {
	return nonInteractiveUi((level: NoticeLevel, text: string) => stream.write(stderrNotice(level, text)));
}
