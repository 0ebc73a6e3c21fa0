// Which session file to open: -c (newest here), --session (path or id prefix), -r (pick from a list).
import {
	formatLocalMinute,
	sessionChoice,
	listSessions,
	newestSessionFile,
	type SessionInfo,
	describeHolder,
	type SessionInUseError,
	sessionIdFromFileName,
	resolveSessionArgument,
	showControls,
	stripToOneLine,
	subagentsText,
} from "../core/index.js";
import type { SelectOptions, UiChoice } from "../core/index.js";
import type { CliOptions } from "./args.js";
import { CLI_WORDING, InterruptedError, UsageError } from "./run-io.js";
import type { TypedAhead } from "./typed-ahead.js";

export interface ChoiceIo {
	stdin: NodeJS.ReadStream;
	stdout: NodeJS.WriteStream;
	stderr: NodeJS.WriteStream;
	/** The user may be asked (stdin is a terminal and is not carrying the prompt). */
	canAsk: boolean;
	/** The keys typed since loom started, held for the screen: a question asked first takes them. */
	typedAhead?: TypedAhead;
}

/** The session file to continue or to fork (--fork), or undefined for a new session. */
export async function chooseSessionFile(options: CliOptions, home: string, cwd: string, io: ChoiceIo): Promise<string | undefined> {
	if (options.session) return resolveSessionArgument(options.session, home, cwd, CLI_WORDING.listSessions);
	if (options.fork) return resolveSessionArgument(options.fork.session, home, cwd, CLI_WORDING.listSessions);
	if (options.continue) {
		const newest = newestSessionFile(home, cwd);
		if (!newest) io.stderr.write(`No earlier session in ${showControls(cwd)}; starting a new one.\n`);
		return newest;
	}
	if (options.resume) return pickSession(listSessions(home, cwd), cwd, io);
	return undefined;
}

/** What to tell a user whose session is open in another loom, and the command that goes on from it safely. */
export function sessionInUseMessage(error: SessionInUseError): string {
	const id = sessionIdFromFileName(error.file) ?? error.file;
	return (
		`session ${id} is in use by another loom process (${describeHolder(error.holder)}); two writers would interleave its messages. ` +
		`To go on from it in a new session without disturbing that one: loom --fork ${id}` +
		` (or, if that process is gone, delete ${error.file}.lock).`
	);
}

/**
 * Asks whether to fork a session that is in use, with a yes/no picker (y or n answers); false when the user
 * declines or nobody can answer. Ctrl+C is an interrupt, as when choosing a session with -r.
 */
export async function askToFork(error: SessionInUseError, io: ChoiceIo): Promise<boolean> {
	if (!io.canAsk) return false;
	const id = sessionIdFromFileName(error.file) ?? error.file;
	const body = [{ text: `Session ${showControls(id)} is open in another loom process (${describeHolder(error.holder)}).`, style: "plain" as const }];
	const answer = await askInTerminal({ title: "Continue from it in a new session (a fork)?", body }, [
		{ label: "Yes, a new session that starts from its conversation", value: true },
		{ label: "No, leave it to the other loom", value: false },
	], io);
	return answer?.value === true;
}

/** One question on the terminal before the screen is up: the answer, or undefined when dismissed; Ctrl+C interrupts. */
async function askInTerminal<T>(select: SelectOptions, choices: readonly UiChoice<T>[], io: ChoiceIo): Promise<{ value: T } | undefined> {
	const { pickInTerminal } = await import("../tui/index.js");
	const typed = io.typedAhead?.release();
	if (typed) io.stdin.unshift(typed);
	const answer = await pickInTerminal(select, choices, io);
	if (answer === "interrupted") throw new InterruptedError();
	return answer === "dismissed" ? undefined : answer;
}

export function formatSessionList(sessions: readonly SessionInfo[], width = 100): string {
	return sessions
		.map((info, index) => {
			const number = String(index + 1).padStart(String(sessions.length).length);
			const when = formatLocalMinute(info.modified);
			const count = `${info.messageCount} msg`.padStart(8);
			const head = `${number}. ${when}  ${count}  ${showControls(info.id.slice(0, 8))}  `;
			const prompt = stripToOneLine(info.firstPrompt) || "(no prompt)";
			const room = Math.max(10, width - head.length);
			const fork = info.forkOf ? ` (fork of ${showControls(info.forkOf.slice(0, 8))})` : "";
			const line = prompt + fork + subagentsText(info);
			return head + (line.length > room ? `${line.slice(0, room - 1)}…` : line);
		})
		.join("\n");
}

async function pickSession(sessions: SessionInfo[], cwd: string, io: ChoiceIo): Promise<string | undefined> {
	if (sessions.length === 0) {
		io.stderr.write(`No sessions in ${showControls(cwd)} yet; starting a new one.\n`);
		return undefined;
	}
	if (!io.canAsk) {
		// Nobody to ask: show the list where a script can read it, and how to choose without a prompt.
		io.stdout.write(`${formatSessionList(sessions, io.stdout.columns || 100)}\n`);
		throw new UsageError("--resume needs a terminal to choose from the list above; pass --session <id> instead.");
	}
	const choices = sessions.map((info) => ({ ...sessionChoice(info), value: info.file }));
	const title = `Resume which session? ${sessions.length} in ${showControls(cwd)}, newest first`;
	const answer = await askInTerminal({ title, filter: true }, choices, io);
	if (!answer) throw new InterruptedError("No session chosen.");
	return answer.value;
}
