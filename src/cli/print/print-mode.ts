// Print mode: run one prompt without the screen. Text mode prints the final answer; JSON mode streams every event.
import type { AgentSession, RunOutcome, SessionEvent } from "../../core/index.js";
import { answerText, messageSearch, runOutcome, sourceLines, stderrLine, stripControls, stripToOneLine, type WebSearchRecord } from "../../core/index.js";
import { eventToJsonLine, LineWriter, type SessionLine } from "./line-writer.js";
import { ToolUpdateDeltas } from "./tool-update-deltas.js";
import type { PromptInput } from "../prompt-input.js";
import { StatusLine } from "./status-line.js";
import { presentedPlan } from "../../sdk/index.js";

export interface PrintIo {
	stdout: NodeJS.WriteStream;
	stderr: NodeJS.WriteStream;
	/** Whether the run was stopped (a signal) before its prompt could start: the prompt is then not sent. */
	stopped?: () => boolean;
}

/** A prompt stopped before it was sent ends as an aborted run. */
const NOT_STARTED = runOutcome(undefined, true, undefined);

export async function runPrintMode(session: AgentSession, input: PromptInput, mode: "text" | "json", io: PrintIo): Promise<RunOutcome> {
	return mode === "json" ? runJson(session, input, io) : runText(session, input, io);
}

async function runJson(session: AgentSession, input: PromptInput, io: PrintIo): Promise<RunOutcome> {
	const first: SessionLine = {
		type: "session",
		id: session.sessionId,
		file: session.sessionFile,
		cwd: session.cwd,
		provider: session.provider,
		model: session.modelId,
	};
	const out = new LineWriter(io.stdout);
	out.write(first);
	const toolUpdates = new ToolUpdateDeltas();
	// Awaited by the session: a slow reader slows the run down instead of piling its lines up in memory.
	session.subscribe((event) => {
		const line = eventToJsonLine(event, toolUpdates);
		return line === undefined ? undefined : out.write(line);
	});
	await session.start();
	if (io.stopped?.()) return NOT_STARTED;
	return session.runPrompt(input.text, { images: input.images });
}

async function runText(session: AgentSession, input: PromptInput, io: PrintIo): Promise<RunOutcome> {
	const status = io.stderr.isTTY ? new StatusLine(io.stderr, () => session.toolCalls) : undefined;
	// Errors reach stderr once, from the outcome (see run.ts); the status line only shows progress. Without it
	// a retry is said as it is scheduled, so a server that is down is not a silent wait.
	if (status) session.subscribe((event: SessionEvent) => status.update(event));
	else session.subscribe((event: SessionEvent) => void (event.type === "retry_scheduled" && io.stderr.write(stderrLine(retryNotice(event)))));
	// The provider's searches of the run and the pages its answers rest on, said on stderr after the answer (JSON
	// mode has them in each message's `search`).
	const searched: WebSearchRecord = { queries: [], sources: [] };
	session.subscribe((event: SessionEvent) => {
		const search = event.type === "message_end" ? messageSearch(event.message) : undefined;
		if (!search) return;
		for (const query of search.queries) if (!searched.queries.includes(query)) searched.queries.push(query);
		for (const source of search.sources) if (!searched.sources.some((known) => known.url === source.url)) searched.sources.push(source);
	});
	await session.start();
	if (io.stopped?.()) return NOT_STARTED;
	status?.start();
	let outcome: RunOutcome;
	try {
		outcome = await session.runPrompt(input.text, { images: input.images });
	} finally {
		status?.stop();
	}
	// Plan mode's run ends with the plan presented (nobody can approve it here): the plan is the answer.
	const plan = outcome.status === "done" ? presentedPlan(outcome.message) : undefined;
	const answer = plan ?? (outcome.message ? answerText(outcome.message) : "");
	// Into a terminal the answer is drawn, so it loses its escape sequences; into a pipe or a file it is data
	// for whoever reads it, passed on exactly as the model wrote it.
	const text = io.stdout.isTTY ? stripControls(answer, { keepTabs: true }) : answer;
	if (text) await writeOut(io.stdout, text.endsWith("\n") ? text : `${text}\n`);
	if (searched.sources.length > 0 || searched.queries.length > 0) {
		io.stderr.write(`\nSources:\n${sourceLines(searched).map((line) => `  ${stripControls(line)}\n`).join("")}`);
	}
	return outcome;
}

/**
 * "connection failed; retrying up to 3 times over about 7s (the first in 1s)" on the first retry (waits double
 * from the first), "retry 2/3 in 2s" on the next ones.
 */
export function retryNotice(event: Extract<SessionEvent, { type: "retry_scheduled" }>): string {
	const seconds = (ms: number) => `${Math.max(1, Math.round(ms / 1000))}s`;
	const reason = stripToOneLine(event.reason);
	if (event.attempt > 1) return `${reason}; retry ${event.attempt}/${event.maxRetries} in ${seconds(event.delayMs)}.`;
	const times = event.maxRetries === 1 ? "once" : `up to ${event.maxRetries} times over about ${seconds(event.delayMs * (2 ** event.maxRetries - 1))}`;
	return `${reason}; retrying ${times} (the first in ${seconds(event.delayMs)}).`;
}

/** stdout refused the output (a full disk, a closed pipe): the answer did not reach its reader. */
export class StdoutError extends Error {
	readonly code: string | undefined;
	constructor(cause: NodeJS.ErrnoException) {
		super(`could not write to stdout: ${cause.message}`);
		this.name = "StdoutError";
		this.code = cause.code;
	}
}

/** Resolves once the text is written; a failed write rejects, so a lost answer cannot end in exit 0. */
function writeOut(stream: NodeJS.WritableStream, text: string): Promise<void> {
	return new Promise((resolve, reject) => {
		stream.write(text, (error) => (error ? reject(new StdoutError(error as NodeJS.ErrnoException)) : resolve()));
	});
}
