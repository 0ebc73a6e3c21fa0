// Tool calls of one answer run in parallel: they start in the answer's order, end in the order they finish,
// and their results reach the conversation in the answer's order again. Then the same with
// session.agent.toolExecution = "sequential", where every call runs alone and ends in the answer's order.
// The first part is seed 001's sample ("在真实会话里观察并发") as written there, with loom's package imported.
//   npx jiti examples/04-parallel-order.ts
import { createAgentSession, SessionManager } from "loom";

const { session } = await createAgentSession({
	sessionManager: SessionManager.inMemory(),
});

try {
	// 三条数组分别记录三个顺序，可以直接对照着看差异
	const starts: string[] = [];
	const ends: string[] = [];
	const results: string[] = [];

	const unsubscribe = session.subscribe((event) => {
		if (event.type === "tool_execution_start") starts.push(event.toolCallId);
		if (event.type === "tool_execution_end") ends.push(event.toolCallId);
		if (event.type === "message_end" && event.message.role === "toolResult") {
			results.push(event.message.toolCallId);
		}
	});

	await session.prompt("并行读三个文件");

	console.log("start 顺序（源序）:", starts);
	console.log("end 顺序（完成序）:", ends);
	console.log("结果消息顺序（源序）:", results);

	// 退订只移除这一个监听器
	unsubscribe();
} finally {
	// 释放：dispose 会中止在跑的工作、清空全部监听器、断开 agent 连接
	session.dispose();
}

// The same request, one call at a time.
const sequential = (await createAgentSession({ sessionManager: SessionManager.inMemory() })).session;
try {
	sequential.agent.toolExecution = "sequential";
	const timeline: string[] = [];
	sequential.subscribe((event) => {
		if (event.type === "tool_execution_start") timeline.push(`start ${event.toolCallId}`);
		if (event.type === "tool_execution_end") timeline.push(`end ${event.toolCallId}`);
	});
	await sequential.prompt("Read the three files again, one after the other.");
	console.log("sequential:", timeline);
} finally {
	sequential.dispose();
}
