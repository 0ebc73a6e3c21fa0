// The texts of steering and follow-up messages waiting for delivery, as the screen shows them.
import type { AgentMessage } from "../../engine/index.js";

export type QueueKind = "steering" | "followUp";

export class MessageQueue {
	private items: { kind: QueueKind; message: AgentMessage; text: string }[] = [];

	add(kind: QueueKind, message: AgentMessage, text: string): void {
		this.items.push({ kind, message, text });
	}

	/** Forgets a message that reached the conversation; true if it was queued. */
	delivered(message: AgentMessage): boolean {
		const index = this.items.findIndex((item) => item.message === message);
		if (index === -1) return false;
		this.items.splice(index, 1);
		return true;
	}

	clear(): void {
		this.items = [];
	}

	texts(): { steering: string[]; followUp: string[] } {
		return {
			steering: this.items.filter((item) => item.kind === "steering").map((item) => item.text),
			followUp: this.items.filter((item) => item.kind === "followUp").map((item) => item.text),
		};
	}
}
