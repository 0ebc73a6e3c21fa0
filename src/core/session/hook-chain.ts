// The session's tool-call hooks: an ordered chain of links for before a call and one for after, composed into
// the Agent's single beforeToolCall / afterToolCall slot. The approval policy, extensions, checkpoints and the
// secret mask each add a link; none of them needs to know the others.
import type { AfterToolCallResult, AgentLoopConfig } from "../engine/index.js";
import { TOOL_RESULT_PARTS, contentProblem } from "../ai/index.js";
import { errorMessage } from "../lib/index.js";
import { applyAfterToolCall } from "../engine/index.js";

/**
 * Where a link runs: every policy link before every extension link, every extension link before every final link.
 * `final` is for what must see the call as everything else left it: the secret mask after a call, the checkpoint
 * taken just before one.
 */
export type HookStage = "policy" | "extension" | "final";
export type BeforeLink = NonNullable<AgentLoopConfig["beforeToolCall"]>;
export type AfterLink = NonNullable<AgentLoopConfig["afterToolCall"]>;

export interface LinkOptions {
	stage: HookStage;
	/** Names the link in the reason the model reads when it throws. */
	name: string;
}

const STAGE_ORDER: readonly HookStage[] = ["policy", "extension", "final"];

interface Entry<L> {
	link: L;
	stage: HookStage;
	name: string;
}

/** Links in running order: by stage, then in the order they were added within a stage. */
export class HookChain<L> {
	/** Replaced, never changed in place: a call in progress keeps the links it started with. */
	private entries: readonly Entry<L>[] = [];

	/** Adds a link; the returned function removes exactly this link (again: no effect). */
	add(link: L, options: LinkOptions): () => void {
		if (!STAGE_ORDER.includes(options.stage)) throw new Error(`Unknown hook stage "${options.stage}": use ${STAGE_ORDER.join(", ")}.`);
		const entry: Entry<L> = { link, stage: options.stage, name: options.name };
		const rank = STAGE_ORDER.indexOf(entry.stage);
		const at = this.entries.findIndex((other) => STAGE_ORDER.indexOf(other.stage) > rank);
		const entries = [...this.entries];
		entries.splice(at === -1 ? entries.length : at, 0, entry);
		this.entries = entries;
		return () => {
			this.entries = this.entries.filter((other) => other !== entry);
		};
	}

	/** The links as of now, in running order (what one call runs through). */
	snapshot(): readonly Entry<L>[] {
		return this.entries;
	}
}

function failure(entry: Entry<unknown>, error: unknown): string {
	return `The ${entry.stage} hook "${entry.name}" failed: ${errorMessage(error)}`;
}

/**
 * One beforeToolCall made of the chain: links run in order, each seeing the arguments as the links before it
 * replaced them (`args`), and the first `{ block: true }` wins (its reason
 * and terminate are kept; later links do not run). A link that throws blocks the call, and the model reads
 * which link failed and why; so does a block whose reason is not text.
 */
export function composeBefore(chain: HookChain<BeforeLink>): BeforeLink {
	return async (context, signal) => {
		let args = context.args;
		let replaced = false;
		for (const entry of chain.snapshot()) {
			let result: Awaited<ReturnType<BeforeLink>>;
			try {
				result = await entry.link({ ...context, args }, signal);
			} catch (error) {
				return { block: true, reason: failure(entry, error) };
			}
			if (!result?.block) {
				// Replaced arguments are what the later links (and the tool) see.
				if (result?.args !== undefined) {
					args = result.args;
					replaced = true;
				}
				continue;
			}
			// The reason becomes the text of the call's result: what is not text is said for it, the block stands.
			if (result.reason !== undefined && typeof result.reason !== "string") {
				return { ...result, reason: `The ${entry.stage} hook "${entry.name}" blocked the call (its reason was ${typeof result.reason}, not text).` };
			}
			return result;
		}
		return replaced ? { args } : undefined;
	};
}

/** Why a link's result cannot be merged into a tool result (naming the first bad field); undefined if it can. */
export function malformedAfterResult(after: unknown): string | undefined {
	if (after === null || typeof after !== "object" || Array.isArray(after)) return `it returned ${after === null ? "null" : Array.isArray(after) ? "a list" : `a ${typeof after}`}, not an object`;
	const { content, isError, terminate } = after as Record<string, unknown>;
	if (content !== undefined) {
		const problem = contentProblem(content, TOOL_RESULT_PARTS);
		if (problem) return problem;
	}
	if (isError !== undefined && typeof isError !== "boolean") return `isError is a ${typeof isError}, not true or false`;
	if (terminate !== undefined && typeof terminate !== "boolean") return `terminate is a ${typeof terminate}, not true or false`;
	return undefined;
}

/**
 * One afterToolCall made of the chain: each link sees the result as overridden by the links before it; every
 * field a link gives replaces that field whole (content, details, isError, terminate), in order. A link that
 * throws ends the chain, and the call's result becomes an error result saying which link failed and why. A link
 * whose result is malformed (a null part, a text that is not text) changes nothing: `report` says which link and
 * why, and the call keeps the result it had, so nothing malformed reaches a message or the session file.
 */
export function composeAfter(chain: HookChain<AfterLink>, report: (text: string) => void = () => {}): AfterLink {
	return async (context, signal) => {
		let { result, isError } = context;
		let changed = false;
		for (const entry of chain.snapshot()) {
			let after: AfterToolCallResult | undefined;
			try {
				after = await entry.link({ ...context, result, isError }, signal);
			} catch (error) {
				// The loop turns a throwing afterToolCall into an error result carrying this message.
				throw new Error(failure(entry, error));
			}
			if (after === undefined) continue;
			const problem = malformedAfterResult(after);
			if (problem) {
				report(`The ${entry.stage} hook "${entry.name}" returned a malformed result (${problem}); the call keeps its own result.`);
				continue;
			}
			({ result, isError } = applyAfterToolCall({ result, isError }, after));
			changed = true;
		}
		return changed ? { content: result.content, details: result.details, isError, terminate: result.terminate } : undefined;
	};
}

/**
 * What a link that runs before the approval policy's says about a call's approval: "allow" spares the user the
 * question (deny rules, guards and read-only mode still hold), "ask" asks even where the mode or a rule would
 * allow the call.
 */
export type ApprovalHint = "allow" | "ask";

/** The session's two chains and the composed hooks the Agent's slots hold; `onBlock` hears each call the before-chain refuses. */
export class ToolHooks {
	readonly before = new HookChain<BeforeLink>();
	readonly after = new HookChain<AfterLink>();
	private readonly hints = new Map<string, ApprovalHint>();
	readonly beforeToolCall: BeforeLink;
	readonly afterToolCall: AfterLink;

	/**
	 * `report`: tells the user about a link whose result was refused (the session's error notice); `onBlock`: hears
	 * of each call the before-chain blocks (the session's call states).
	 */
	constructor(report: (text: string) => void = () => {}, onBlock?: (toolCallId: string) => void) {
		const before = composeBefore(this.before);
		this.beforeToolCall = async (context, signal) => {
			const result = await before(context, signal);
			if (result?.block) onBlock?.(context.toolCall.id);
			return result;
		};
		this.afterToolCall = composeAfter(this.after, report);
	}

	/** For a link before the policy's (settings hooks): says how the policy should treat this call's approval. */
	hintApproval(toolCallId: string, hint: ApprovalHint): void {
		this.hints.set(toolCallId, hint);
	}

	/** For the approval policy: the hint given for this call, once (it is forgotten as it is taken). */
	takeApprovalHint(toolCallId: string): ApprovalHint | undefined {
		const hint = this.hints.get(toolCallId);
		this.hints.delete(toolCallId);
		return hint;
	}
}
