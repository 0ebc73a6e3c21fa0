// What a run of loom reads and writes, and how it reports a failure: shared by the commands that need no session
// and the session's modes.
import { stderrLine } from "../core/index.js";
import { EXIT } from "./exit-codes.js";

export interface RunIo {
	stdin: NodeJS.ReadStream;
	stdout: NodeJS.WriteStream;
	stderr: NodeJS.WriteStream;
	env: NodeJS.ProcessEnv;
	cwd: string;
}

/** Reports on stderr; the message may carry a server's or a file's text, so its escape sequences are stripped. */
export function fail(io: RunIo, message: string): number {
	io.stderr.write(stderrLine(message));
	return EXIT.failure;
}
