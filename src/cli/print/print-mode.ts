// Print mode: run one prompt without the screen. Text mode prints the final answer; JSON mode streams every event.
import type { AgentSession, RunOutcome, SessionEvent } from "../../core/index.js";
import { answerText, messageSearch, runOutcome, sourceLines, stderrLine, stripControls, stripToOneLine, type WebSearchRecord } from "../../core/index.js";
import { eventToJsonLine, LineWriter, type SessionLine } from "./line-writer.js";
import { ToolUpdateDeltas } from "./tool-update-deltas.js";
import type { PromptInput } from "../prompt-input.js";
import { StatusLine } from "./status-line.js";
import { presentedPlan } from "../../sdk/index.js";
import { type OutputCheck, repairPrompt } from "./output-schema.js";

export interface PrintIo {
	stdout: NodeJS.WriteStream;
	stderr: NodeJS.WriteStream;
	/** Whether the run was stopped (a signal) before its prompt could start: the prompt is then not sent. */
	stopped?: () => boolean;
	/** --output-schema: the answer must be JSON valid against it (asked once more with the errors when it is not). */
	output?: OutputCheck;
}

/** What print mode ended with: the run's outcome and, with an output schema, the checked answer. */
export interface PrintResult {
	outcome: RunOutcome;
	/** Set when an output schema was given and the run finished: the valid value, or the last answer's problems. */
	structured?: { ok: true; value: unknown } | { ok: false; errors: string };
}

/** JSON mode's last line with --output-schema. */
export type ResultLine = { type: "result"; status: "ok"; result: unknown } | { type: "result"; status: "invalid"; errors: string; answer: string };

/** A prompt stopped before it was sent ends as an aborted run. */
const NOT_STARTED = runOutcome(undefined, true, undefined);

export async function runPrintMode(session: AgentSession, input: PromptInput, mode: "text" | "json", io: PrintIo): Promise<PrintResult> {
	return mode === "json" ? runJson(session, input, io) : runText(session, input, io);
}

/**
 * Runs the prompt; with an output schema, checks the answer and, when it does not validate, asks once more with
 * the problems. `run` runs one prompt's text.
 */
async function runChecked(input: PromptInput, io: PrintIo, run: (text: string, images?: PromptInput["images"]) => Promise<RunOutcome>): Promise<PrintResult> {
	let outcome = await run(input.text, input.images);
	if (!io.output) return { outcome };
	for (let attempt = 1; ; attempt++) {
		if (outcome.status !== "done" || io.stopped?.()) return { outcome };
		const structured = io.output.check(outcome.message ? answerText(outcome.message) : "");
		if (structured.ok || attempt === 2) return { outcome, structured };
		outcome = await run(repairPrompt(structured.errors));
	}
}

async function runJson(session: AgentSession, input: PromptInput, io: PrintIo): Promise<PrintResult> {
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
	if (io.stopped?.()) return { outcome: NOT_STARTED };
	const result = await runChecked(input, io, (text, images) => session.runPrompt(text, { images }));
	if (result.structured) {
		const answer = result.outcome.message ? answerText(result.outcome.message) : "";
		const line: ResultLine = result.structured.ok
			? { type: "result", status: "ok", result: result.structured.value }
			: { type: "result", status: "invalid", errors: result.structured.errors, answer };
		await out.write(line);
	}
	return result;
}

async function runText(session: AgentSession, input: PromptInput, io: PrintIo): Promise<PrintResult> {
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
	if (io.stopped?.()) return { outcome: NOT_STARTED };
	status?.start();
	let result: PrintResult;
	try {
		result = await runChecked(input, io, (text, images) => session.runPrompt(text, { images }));
	} finally {
		status?.stop();
	}
	const { outcome, structured } = result;
	// With a schema stdout carries exactly the valid JSON, or nothing.
	if (structured) {
		if (structured.ok) await writeOut(io.stdout, `${JSON.stringify(structured.value)}\n`);
		return result;
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
	return result;
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
