// What a prompt's run asks of the plugs besides the agent: whether a prompt may run and what context it carries
// to the model (settings hooks' UserPromptSubmit), and whether the agent may stop when it would, or must take
// another turn (Stop). A link that throws counts as no answer: a broken plug never stops a prompt.
import type { AssistantMessage } from "../../ai/index.js";

export interface PromptVerdict {
	/** Why the prompt is not run (the user reads it). */
	block?: string;
	/** Text the prompt carries to the model after what the user wrote. */
	context?: readonly string[];
}
export type PromptLink = (prompt: string, signal: AbortSignal) => Promise<PromptVerdict | undefined>;

export interface StopQuestion {
	/** The answer the agent would stop on. */
	lastAnswer: AssistantMessage | undefined;
	/** How many times this prompt's run was already made to go on (Claude Code's stop_hook_active when above 0). */
	continued: number;
}
/** What the agent is told to go on with; undefined lets it stop. */
export type StopLink = (question: StopQuestion, signal: AbortSignal) => Promise<string | undefined>;

/** A run is made to go on at most this many times, so hooks that always object cannot loop forever. */
export const MAX_STOP_CONTINUATIONS = 3;

export class RunHooks {
	private promptLinks: readonly PromptLink[] = [];
	private stopLinks: readonly StopLink[] = [];

	/** Returns the function that removes this link. */
	onPrompt(link: PromptLink): () => void {
		this.promptLinks = [...this.promptLinks, link];
		return () => {
			this.promptLinks = this.promptLinks.filter((other) => other !== link);
		};
	}

	onStop(link: StopLink): () => void {
		this.stopLinks = [...this.stopLinks, link];
		return () => {
			this.stopLinks = this.stopLinks.filter((other) => other !== link);
		};
	}

	/** Every link in order; the first block wins, the contexts of the links before it are kept in order. */
	async checkPrompt(prompt: string, signal: AbortSignal): Promise<{ block?: string; context: string[] }> {
		const context: string[] = [];
		for (const link of this.promptLinks) {
			const verdict = await link(prompt, signal).catch(() => undefined);
			if (verdict?.context) context.push(...verdict.context);
			if (verdict?.block !== undefined) return { block: verdict.block, context };
		}
		return { context };
	}

	/** The first link's reason to go on, or undefined when every link lets the agent stop. */
	async checkStop(question: StopQuestion, signal: AbortSignal): Promise<string | undefined> {
		for (const link of this.stopLinks) {
			const reason = await link(question, signal).catch(() => undefined);
			if (reason !== undefined) return reason;
		}
		return undefined;
	}
}
