// The session's questions as requests to the RPC client: each select, confirm or input becomes an
// `extension_ui_request` line with an id and waits for the client's `extension_ui_response` (the same lines Pi's
// RPC mode uses, so its clients answer them unchanged). The approval question is a select marked `approval`; a
// client may answer it with `approval_response` and a decision instead, and give the reason for a denial there.
import { randomUUID } from "node:crypto";
import type {
	NoticeLevel,
	ApprovalChoice,
	ApprovalSubject,
	InputOptions,
	SelectOptions,
	SessionUi,
	UiChoice,
} from "../../core/index.js";
import { CommandError, type RpcCommand, choiceField, optionalString } from "./rpc-protocol.js";

/** approval_response's decisions, and the approval question's choice each one picks. */
const APPROVAL_DECISIONS = { allow_once: "once", allow_session: "session", deny: "deny" } as const satisfies Record<string, ApprovalChoice>;
type Decision = keyof typeof APPROVAL_DECISIONS;
const DECISIONS = Object.keys(APPROVAL_DECISIONS) as Decision[];

type Method = "select" | "confirm" | "input";

interface Pending {
	method: Method;
	/** select: the labels the client chooses from, and their values. */
	choices?: readonly UiChoice<unknown>[];
	approval?: ApprovalSubject;
	resolve(value: unknown): void;
}

export type LineSink = (value: object) => void;

export class RpcUi implements SessionUi {
	readonly interactive = true;
	private readonly pending = new Map<string, Pending>();
	/** Reasons given with approval_response's "deny", by tool call, for the reason question that follows. */
	private readonly denialReasons = new Map<string, string | undefined>();
	private closed = false;

	constructor(private readonly write: LineSink) {}

	notify(level: NoticeLevel, text: string): void {
		this.write({ type: "extension_ui_request", id: randomUUID(), method: "notify", message: text, notifyType: level });
	}

	/** Offers text for the client's input box (a prompt /fork or /rewind took back), as Pi's set_editor_text. */
	setEditorText(text: string): void {
		this.write({ type: "extension_ui_request", id: randomUUID(), method: "set_editor_text", text });
	}

	select<T>(options: SelectOptions, choices: readonly UiChoice<T>[]): Promise<T | undefined> {
		const request = {
			method: "select",
			title: options.title,
			options: choices.map((choice) => choice.label),
			// loom's own fields; a client that does not know them still has title and options.
			...(choices.some((choice) => choice.description) ? { descriptions: choices.map((choice) => choice.description ?? "") } : {}),
			...(options.body?.length ? { body: options.body } : {}),
			...(options.initialIndex !== undefined ? { initialIndex: options.initialIndex } : {}),
			...(options.approval ? { approval: { ...options.approval, decisions: decisionsOf(choices) } } : {}),
		};
		return this.ask(request, { method: "select", choices, approval: options.approval }, options.signal) as Promise<T | undefined>;
	}

	async confirm(title: string, message?: string, signal?: AbortSignal): Promise<boolean> {
		const answer = await this.ask({ method: "confirm", title, ...(message ? { message } : {}) }, { method: "confirm" }, signal);
		return answer === true;
	}

	input(title: string, options: InputOptions = {}): Promise<string | undefined> {
		const { approval } = options;
		// The reason for a denial the client already gave with approval_response: asked of nobody.
		if (approval && this.denialReasons.has(approval.toolCallId)) {
			const reason = this.denialReasons.get(approval.toolCallId);
			this.denialReasons.delete(approval.toolCallId);
			return Promise.resolve(reason);
		}
		const request = {
			method: "input",
			title,
			...(options.placeholder ? { placeholder: options.placeholder } : {}),
			...(options.initial ? { prefill: options.initial } : {}),
			...(approval ? { approval } : {}),
		};
		return this.ask(request, { method: "input", approval }, options.signal) as Promise<string | undefined>;
	}

	/** extension_ui_response: `value` (select's label, input's text), `confirmed`, or `cancelled: true`. */
	answer(command: RpcCommand): void {
		const [id, request] = this.open(command);
		if (command.fields.cancelled === true) return this.settle(id, undefined);
		switch (request.method) {
			case "confirm": {
				const confirmed = command.fields.confirmed;
				if (typeof confirmed !== "boolean") throw new CommandError('A confirm request is answered with "confirmed": true or false (or "cancelled": true).');
				return this.settle(id, confirmed);
			}
			case "input":
				return this.settle(id, stringValue(command, 'An input request is answered with "value": the text (or "cancelled": true).'));
			case "select": {
				const label = stringValue(command, 'A select request is answered with "value": one of its options (or "cancelled": true).');
				const choice = request.choices?.find((candidate) => candidate.label === label);
				if (!choice) throw new CommandError(`"${label}" is not one of the options: ${request.choices?.map((c) => JSON.stringify(c.label)).join(", ")}.`);
				return this.settle(id, choice.value);
			}
		}
	}

	/** approval_response: `decision` (allow_once, allow_session or deny) with an optional `reason`, or `cancelled: true`. */
	answerApproval(command: RpcCommand): void {
		const [id, request] = this.open(command);
		if (!request.approval) throw new CommandError(`Request ${id} is not an approval request; answer it with extension_ui_response.`);
		if (command.fields.cancelled === true) return this.settle(id, undefined);
		const decision = choiceField(command, "decision", DECISIONS);
		const reason = optionalString(command, "reason");
		const value = APPROVAL_DECISIONS[decision];
		const choice = request.choices?.find((candidate) => candidate.value === value);
		if (!choice) throw new CommandError(`This approval request does not offer "${decision}".`);
		if (decision === "deny") this.denialReasons.set(request.approval.toolCallId, reason?.trim() || undefined);
		this.settle(id, choice.value);
	}

	/** No client is left to answer (stdin ended): every open question gets no answer, and later ones none at once. */
	close(): void {
		this.closed = true;
		for (const id of [...this.pending.keys()]) this.settle(id, undefined);
	}

	private ask(request: Record<string, unknown>, pending: Omit<Pending, "resolve">, signal?: AbortSignal): Promise<unknown> {
		if (this.closed || signal?.aborted) return Promise.resolve(undefined);
		const id = randomUUID();
		return new Promise((resolve) => {
			const onAbort = () => {
				if (!this.pending.has(id)) return;
				this.settle(id, undefined);
				// The question is withdrawn (its run stopped): the client closes its dialog; an answer now is an error.
				this.write({ type: "extension_ui_cancelled", id });
			};
			this.pending.set(id, {
				...pending,
				resolve: (value) => {
					signal?.removeEventListener("abort", onAbort);
					resolve(value);
				},
			});
			signal?.addEventListener("abort", onAbort, { once: true });
			this.write({ type: "extension_ui_request", id, ...request });
		});
	}

	private open(command: RpcCommand): [string, Pending] {
		const id = command.id;
		if (id === undefined) throw new CommandError(`${command.type} needs "id": the id of the request it answers.`);
		const request = this.pending.get(String(id));
		if (!request) throw new CommandError(`No open request has id ${JSON.stringify(id)}: it was answered already or withdrawn.`);
		return [String(id), request];
	}

	private settle(id: string, value: unknown): void {
		const request = this.pending.get(id);
		if (!request) return;
		this.pending.delete(id);
		request.resolve(value);
	}
}

function stringValue(command: RpcCommand, message: string): string {
	const value = command.fields.value;
	if (typeof value !== "string") throw new CommandError(message);
	return value;
}

/** The decisions an approval question offers, in the order of its options. */
function decisionsOf(choices: readonly UiChoice<unknown>[]): (Decision | null)[] {
	return choices.map((choice) => DECISIONS.find((decision) => APPROVAL_DECISIONS[decision] === choice.value) ?? null);
}
