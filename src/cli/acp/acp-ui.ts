// The session's SessionUi over ACP. A question becomes `session/request_permission`: the approval question (a
// select marked with the call it is about) is asked on that tool call, any other question (confirm, or a choice
// among a few) on a stand-in tool call that shows it. Free text cannot be asked over ACP: a denial goes without
// a reason. Notices go to the client as `notice` updates where it takes them, otherwise to stderr.
import type { AgentContext, PermissionOption, PermissionOptionKind, SessionUpdate, ToolCallUpdate } from "@agentclientprotocol/sdk";
import type {
	NoticeLevel,
	ApprovalChoice,
	InputOptions,
	SelectOptions,
	SessionUi,
	UiChoice,
} from "../../core/index.js";
import { plainNotice, errorMessage } from "../../core/index.js";

export interface AcpUiOptions {
	client: AgentContext;
	sessionId: () => string;
	/** Sends updates of this session in order with the others. */
	send: (updates: SessionUpdate[]) => Promise<void>;
	/** The client shows `notice` updates. */
	notices: boolean;
	/** A line for stderr (notices the client cannot show, questions it cannot be asked). */
	log: (text: string) => void;
}

/** The approval question's answers as ACP permission kinds. */
const APPROVAL_KINDS: Readonly<Record<ApprovalChoice, PermissionOptionKind>> = { once: "allow_once", session: "allow_always", deny: "reject_once" };

export class AcpUi implements SessionUi {
	/** The client answers permission requests. */
	readonly interactive = true;
	private questions = 0;
	/** Questions wait until the client knows the session (its session/new or session/load was answered). */
	private opened!: () => void;
	private readonly ready = new Promise<void>((resolve) => (this.opened = resolve));

	constructor(private readonly options: AcpUiOptions) {}

	/** The client now knows the session: questions may go out. */
	open(): void {
		this.opened();
	}

	notify(level: NoticeLevel, text: string): void {
		if (this.options.notices) void this.options.send([{ sessionUpdate: "notice", severity: level, title: text }]);
		else this.options.log(`loom: ${plainNotice(level, text)}`);
	}

	async select<T>(options: SelectOptions, choices: readonly UiChoice<T>[]): Promise<T | undefined> {
		const toolCallId = options.approval?.toolCallId;
		// A picker of many items (models, sessions) would be a wall of buttons; the command takes the name instead.
		if (options.filter && toolCallId === undefined) {
			this.options.log(`loom: not asked (a picker of ${choices.length} choices is not offered over ACP): ${options.title}`);
			return undefined;
		}
		const permissionOptions = choices.map(
			(choice, index): PermissionOption => ({
				optionId: String(index),
				name: choice.description ? `${choice.label} (${choice.description})` : choice.label,
				// A "no" among the choices (the value false) shows as a refusal.
				kind: (toolCallId !== undefined && APPROVAL_KINDS[choice.value as ApprovalChoice]) || (choice.value === false ? "reject_once" : "allow_once"),
			}),
		);
		const index =
			toolCallId !== undefined
				? await this.request({ toolCallId }, permissionOptions, options.signal)
				: await this.askOnStandIn(options.title, options.body?.map((line) => line.text).join("\n"), permissionOptions, options.signal);
		return index === undefined ? undefined : choices[index]?.value;
	}

	async confirm(title: string, message?: string, signal?: AbortSignal): Promise<boolean> {
		const options: PermissionOption[] = [
			{ optionId: "0", name: "Yes", kind: "allow_once" },
			{ optionId: "1", name: "No", kind: "reject_once" },
		];
		return (await this.askOnStandIn(title, message, options, signal)) === 0;
	}

	async input(title: string, options?: InputOptions): Promise<string | undefined> {
		// The reason for a denial: the model is told the user denied the call, without one.
		if (!options?.approval) this.options.log(`loom: not asked (ACP has no text questions): ${title}`);
		return undefined;
	}

	/** A question that is not about a tool call, shown as one of kind "other" that holds it. */
	private async askOnStandIn(title: string, text: string | undefined, options: PermissionOption[], signal?: AbortSignal): Promise<number | undefined> {
		await this.ready;
		const toolCallId = `loom-question-${++this.questions}`;
		const content = text ? [{ type: "content" as const, content: { type: "text" as const, text } }] : [];
		await this.options.send([{ sessionUpdate: "tool_call", toolCallId, title, kind: "other", status: "pending", content }]);
		const answer = await this.request({ toolCallId }, options, signal);
		await this.options.send([{ sessionUpdate: "tool_call_update", toolCallId, status: answer === undefined ? "failed" : "completed" }]);
		return answer;
	}

	/** The index of the option chosen; undefined when the client cancelled, the signal aborted or the request failed. */
	private async request(toolCall: ToolCallUpdate, options: PermissionOption[], signal?: AbortSignal): Promise<number | undefined> {
		await this.ready;
		if (signal?.aborted) return undefined;
		try {
			const { outcome } = await this.options.client.request(
				"session/request_permission",
				{ sessionId: this.options.sessionId(), toolCall, options },
				cancelledWith(signal),
			);
			if (outcome.outcome !== "selected") return undefined;
			const index = Number(outcome.optionId);
			return Number.isInteger(index) && index >= 0 && index < options.length ? index : undefined;
		} catch (error) {
			if (!signal?.aborted) this.options.log(`loom: the editor did not answer a permission request: ${errorMessage(error)}`);
			return undefined;
		}
	}
}

/**
 * Options for a request to the editor made on behalf of a run: when the run is stopped, the request is cancelled
 * (the editor is told) and loom stops waiting for its answer.
 */
export function cancelledWith(signal: AbortSignal | undefined): { cancellationSignal: AbortSignal; stopWaitingOnCancel: true } | undefined {
	return signal ? { cancellationSignal: signal, stopWaitingOnCancel: true } : undefined;
}
