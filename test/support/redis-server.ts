// A real redis-server for queue tests: started on a free port with nothing saved to disk, stopped by its pid.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";

export interface RedisServer {
	url: string;
	stop(): Promise<void>;
}

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}

export async function startRedis(): Promise<RedisServer> {
	const port = await freePort();
	const child: ChildProcess = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
	let output = "";
	await new Promise<void>((resolve, reject) => {
		child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
			output += chunk;
			if (output.includes("Ready to accept connections")) resolve();
		});
		child.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
		child.once("error", reject);
	});
	return {
		url: `redis://127.0.0.1:${port}/0`,
		stop: () =>
			new Promise((resolve) => {
				if (child.exitCode !== null) return resolve();
				child.once("exit", () => resolve());
				child.kill("SIGKILL");
			}),
	};
}
