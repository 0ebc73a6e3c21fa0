// ACP session modes are loom's approval modes: auto, ask and read-only. A mode is switched the way the screen
// switches it, by the session's /approval command, so the policy that owns the mode stays the only one.
import type { SessionModeState } from "@agentclientprotocol/sdk";
import { RequestError } from "@agentclientprotocol/sdk";
import { APPROVAL_MODE_TEXT, APPROVAL_MODES } from "../../core/index.js";
import type { AgentSession } from "../../core/index.js";

/** The modes to offer; undefined for a session without an approval policy. */
export function sessionModes(session: AgentSession): SessionModeState | undefined {
	const current = session.approvalMode;
	if (current === undefined) return undefined;
	return {
		currentModeId: current,
		availableModes: APPROVAL_MODES.map((id) => ({ id, name: APPROVAL_MODE_TEXT[id].name, description: APPROVAL_MODE_TEXT[id].meaning })),
	};
}

export async function setSessionMode(session: AgentSession, modeId: string): Promise<void> {
	const command = session.commands.get("approval");
	if (!command || session.approvalMode === undefined) throw RequestError.invalidParams(undefined, "this session has no approval modes.");
	if (!(APPROVAL_MODES as readonly string[]).includes(modeId)) {
		throw RequestError.invalidParams(undefined, `unknown mode "${modeId}"; the modes are ${APPROVAL_MODES.join(", ")}.`);
	}
	let failure: string | undefined;
	await command.handler(modeId, {
		session,
		busy: session.isStreaming,
		notify: (level, text) => {
			if (level === "error") failure = text;
		},
	});
	if (failure !== undefined) throw new RequestError(-32603, failure);
}
