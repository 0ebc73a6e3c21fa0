// What a prompt's run gives back: how it ended.
import type { AssistantMessage } from "../../ai/index.js";
import type { RunOutcome } from "../agent-session-types.js";

/** `last`: the run's last assistant message; a problem (a write failure, a plug that broke) or an abort request outranks how it ended. */
export function runOutcome(last: AssistantMessage | undefined, abortRequested: boolean, problem: string | undefined): RunOutcome {
	if (problem) return { status: "error", message: last, errorMessage: problem };
	if (abortRequested || last?.stopReason === "aborted") {
		return { status: "aborted", message: last, errorMessage: last?.errorMessage ?? "Aborted" };
	}
	if (last?.stopReason === "error") return { status: "error", message: last, errorMessage: last.errorMessage };
	return { status: "done", message: last };
}
